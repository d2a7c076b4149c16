"""``python -m lsp_server [--tcp HOST:PORT]``: the same as ``dllog lsp``."""
import argparse
import sys

from .server import main

if __name__ == "__main__":  # guarded: the analysis worker process re-imports __main__ (spawn)
    parser = argparse.ArgumentParser(prog="python -m lsp_server")
    parser.add_argument("--tcp", metavar="HOST:PORT")
    sys.exit(main(parser.parse_args().tcp) or 0)
