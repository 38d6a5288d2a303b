"""``python -m aisched``: the ``aisched`` command (:func:`aisched.cli.entry`)."""

from aisched.cli import entry

if __name__ == "__main__":  # a spawned pool worker imports this module as __mp_main__: nothing runs there
    entry()
