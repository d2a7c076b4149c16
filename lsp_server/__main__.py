"""``python -m lsp_server [--tcp HOST:PORT]``: the same as ``dllog lsp``."""
import argparse
import sys

from .server import main

parser = argparse.ArgumentParser(prog="python -m lsp_server")
parser.add_argument("--tcp", metavar="HOST:PORT")
sys.exit(main(parser.parse_args().tcp) or 0)
