"""Property test: over generated training-loop variants (indentation, newlines, nesting,
names, the logger/tracker already in the file, extra sites), fixes always parse, are
idempotent, and keep every original line (in order) except the expressions they rewrite.
"""
from __future__ import annotations

import ast
import difflib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flake8_dllog.config import Config
from flake8_dllog.fixes import fix_source
from flake8_dllog.fixes.text import split_lines

HEADERS = {
    "none": [],
    "logging": ["import logging", "", "logger = logging.getLogger(__name__)"],
    "loguru": ["from loguru import logger"],
    "wandb": ["import wandb"],
    "tensorboard": ["from torch.utils.tensorboard import SummaryWriter", "", "writer = SummaryWriter()"],
    "mlflow": ["import mlflow"],
}


@st.composite
def training_scripts(draw):
    unit = draw(st.sampled_from(["    ", "  ", "\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    backend = draw(st.sampled_from(sorted(HEADERS)))
    loss = draw(st.sampled_from(["loss", "l", "err", "batch_loss"]))
    nested = draw(st.booleans())
    enumerate_steps = draw(st.booleans())
    wrap = draw(st.sampled_from(["module", "function", "main_guard"]))
    save = draw(st.booleans())
    device = draw(st.booleans())
    seed_from_args = draw(st.booleans())
    docstring = draw(st.booleans())
    comment = draw(st.sampled_from(["", "# étape d'entraînement ✓", "# note"]))
    trailing_newline = draw(st.booleans())
    existing_log = draw(st.sampled_from(["", "print", "logger", "fstring"]))
    load = draw(st.sampled_from(["", "plain", "non_strict", "one_line"]))
    evaluation = draw(st.booleans())

    lines: list[str] = []
    if docstring:
        lines += ['"""Train a model."""']
    lines += ["import argparse", "", "import torch", *HEADERS[backend], ""]
    body: list[tuple[int, str]] = [(0, "parser = argparse.ArgumentParser()"), (0, "args = parser.parse_args()")]
    if seed_from_args:
        body.append((0, "torch.manual_seed(args.seed)"))
    if backend == "wandb":
        body.append((0, "wandb.init(project='p')"))
    if device:
        body.append((0, "model.to(device)"))
    depth = 0
    if nested:
        body.append((0, "for epoch in range(args.epochs):"))
        depth = 1
    loop = "for step, (x, y) in enumerate(loader):" if enumerate_steps else "for x, y in loader:"
    body.append((depth, loop))
    if comment:
        body.append((depth + 1, comment))
    body += [
        (depth + 1, "optimizer.zero_grad()"),
        (depth + 1, f"{loss} = criterion(model(x), y)"),
        (depth + 1, f"{loss}.backward()"),
        (depth + 1, "optimizer.step()"),
    ]
    if backend == "tensorboard":
        body.append((depth + 1, "writer.add_histogram('w', model.weight)"))
    if existing_log == "print":
        body.append((depth + 1, "print('lr', optimizer.param_groups[0]['lr'])"))
    elif existing_log == "logger" and backend in ("logging", "loguru"):
        body.append((depth + 1, 'logger.info("batch done")'))
    elif existing_log == "fstring":
        body.append((depth, 'print(f"finished {len(loader)} batches")'))
    if load == "plain":
        body.insert(2, (0, "model.load_state_dict(torch.load(args.resume))"))
    elif load == "non_strict":
        body.insert(2, (0, "model.load_state_dict(torch.load(args.resume), strict=False)"))
    elif load == "one_line":
        body.insert(2, (0, "if args.resume: model.load_state_dict(torch.load(args.resume))"))
    if evaluation:
        body += [
            (0, "model.eval()"),
            (0, "with torch.no_grad():"),
            (1, "val_loss = sum(criterion(model(x), y).item() for x, y in val_loader) / len(val_loader)"),
            (1, "acc = (model(xv).argmax(1) == yv).float().mean().item()"),
        ]
    if save:
        body.append((0, "torch.save(model.state_dict(), args.out)"))
    if wrap == "module":
        lines += [unit * d + text for d, text in body]
    elif wrap == "function":
        lines += ["def main():"] + [unit * (d + 1) + text for d, text in body]
        lines += ["", "", "main()"]
    else:
        lines += ["def main():"] + [unit * (d + 1) + text for d, text in body]
        lines += ["", "", 'if __name__ == "__main__":', unit + "main()"]
    text = newline.join(lines)
    return text + newline if trailing_newline else text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(training_scripts())
def test_fixes_parse_are_idempotent_and_only_insert(source):
    result = fix_source(source, "train.py", Config())
    ast.parse(result.source)
    again = fix_source(result.source, "train.py", Config())
    assert again.source == result.source, f"not idempotent:\n{result.source}\n---\n{again.source}"
    assert not again.edits
    rewritten: set[int] = set()
    for e in result.edits:
        whole_lines = (e.start_line, e.start_column) == (e.end_line, e.end_column) and e.start_column == 0 and e.new_text.endswith(("\n", "\r"))
        at_eof = e.start_line == e.end_line and e.start_column == e.end_column and e.new_text.startswith(("\n", "\r"))
        if not (whole_lines or at_eof):
            rewritten.update(range(e.start_line, e.end_line + 1))
    old, new = split_lines(source), split_lines(result.source)
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            # The last line of a file without a final newline gains one when code follows it.
            changed = {i for i in range(i1, i2) if not (i == len(old) - 1 and not old[i].endswith(("\n", "\r")))}
            assert changed <= rewritten, f"original lines {i1 + 1}-{i2} changed:\n{result.source}"
    _inserted_module_code_uses_bound_names(source, result.source)
    newline = "\r\n" if "\r\n" in source else "\n"
    if newline == "\r\n":
        assert all(line.endswith("\r\n") for line in new[:-1])
    else:
        assert "\r" not in result.source


def _inserted_module_code_uses_bound_names(old: str, new: str) -> None:
    """Module-level statements a fix inserted only use names bound above them (the logger is
    defined before a module-level log, the seed before it is logged)."""
    tree = ast.parse(new)
    old_lines = set(split_lines(old))
    first_bound: dict[str, int] = {}
    for stmt in tree.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                first_bound.setdefault(node.id, stmt.lineno)
            elif isinstance(node, ast.alias):
                first_bound.setdefault((node.asname or node.name).split(".")[0], stmt.lineno)
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            first_bound.setdefault(stmt.name, stmt.lineno)
    new_lines = split_lines(new)
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if new_lines[stmt.lineno - 1] in old_lines:
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in first_bound:
                assert first_bound[node.id] <= stmt.lineno, f"{node.id} used on line {stmt.lineno} before it is bound:\n{new}"
