"""Studies: runs about the silent parameters: calibration to the paper's baseline relations, and sensitivity."""
