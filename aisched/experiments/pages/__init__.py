"""Pages: everything that renders: the report, the reproduction page, their figures and Markdown sections."""
