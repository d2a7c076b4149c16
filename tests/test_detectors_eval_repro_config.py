"""Focused tests for DLL300 (evaluation), DLL500/501/502/601 (reproducibility) and DLL600
(configuration), beyond the rule examples: import aliases, entry-point variants, the
Finding.context keys fixes are built from, ranges, and non-ASCII sources."""
from __future__ import annotations

import textwrap

from flake8_dllog.config import Config
from flake8_dllog.engine import check_source

ALL = frozenset({"DLL300", "DLL500", "DLL501", "DLL502", "DLL600", "DLL601"})


def findings(source: str, codes=ALL, path: str = "train.py"):
    result = check_source(textwrap.dedent(source), path, Config(), codes=frozenset(codes))
    assert result.error is None, result.error
    return result.findings


def only(source: str, code: str, path: str = "train.py"):
    found = [f for f in findings(source, {code}, path) if f.code == code]
    assert len(found) == 1, found
    return found[0]


TRAIN_LOOP = textwrap.dedent(
    """
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        print(loss.item())
    """
)


# -- DLL500 / entry points --------------------------------------------------------------


def test_unseeded_main_guard_reports_the_guard_header_with_fix_context():
    src = "import random\nimport numpy as np\nimport torch as T\n\ndef main():" + textwrap.indent(TRAIN_LOOP, "    ") + "\nif __name__ == '__main__':\n    main()\n"
    f = only(src, "DLL500")
    guard_line = src.splitlines().index("if __name__ == '__main__':") + 1
    assert (f.line, f.column, f.end_line) == (guard_line, 0, guard_line)
    assert f.end_column == len("if __name__ == '__main__':")
    ctx = f.context
    assert ctx["entry"] == "main_guard"
    assert ctx["anchor"] == "body_start" and ctx["anchor_line"] == guard_line
    assert ctx["seed"] is None
    assert ctx["libraries"] == ["random", "numpy", "torch"]
    assert ctx["scope"] == "<module>" and ctx["rule"] == "DLL500"


def test_module_level_training_anchors_after_the_imports():
    src = "import torch\nimport numpy as np\n\nmodel = Net()\nloader = make_loader()\n" + textwrap.dedent(TRAIN_LOOP)
    f = only(src, "DLL500")
    assert f.context["entry"] == "module"
    assert f.context["anchor"] == "after" and f.context["anchor_line"] == 2
    assert f.line == 7  # the loop header that starts training


def test_library_module_without_guard_is_not_an_entry_point():
    src = "import torch\n\ndef train(model, loader, optimizer, criterion):" + textwrap.indent(TRAIN_LOOP, "    ")
    assert findings(src, {"DLL500", "DLL502", "DLL601"}) == []


def test_guard_that_never_reaches_training_is_silent():
    src = (
        "import torch\n\ndef train(model, loader, optimizer, criterion):"
        + textwrap.indent(TRAIN_LOOP, "    ")
        + "\nif __name__ == '__main__':\n    print(torch.ones(1))\n"
    )
    assert findings(src, {"DLL500"}) == []


def test_training_reached_through_a_class_and_spawn():
    src = """
    import torch
    import torch.multiprocessing as mp

    class Runner:
        def fit(self):
            for x, y in self.loader:
                self.optimizer.zero_grad()
                loss = self.criterion(self.model(x), y)
                loss.backward()
                self.optimizer.step()
                print(loss.item())

    def worker(rank):
        Runner().fit()

    if __name__ == "__main__":
        mp.spawn(worker, nprocs=2)
    """
    assert [f.code for f in findings(src, {"DLL500"})] == ["DLL500"]


def test_seed_word_anywhere_silences_dll500():
    src = "import torch\nfrom project.utils import init_seeds\n\ndef main():\n    init_seeds(3)" + textwrap.indent(TRAIN_LOOP, "    ") + "\nif __name__ == '__main__':\n    main()\n"
    assert findings(src, {"DLL500"}) == []


def test_lightning_trainer_does_not_count_as_self_seeding_but_hf_trainer_does():
    lightning = "import pytorch_lightning as pl\nif __name__ == '__main__':\n    pl.Trainer().fit(model)\n"
    hf = "from transformers import Trainer\nif __name__ == '__main__':\n    trainer = Trainer(model=model, args=args)\n    trainer.train()\n"
    assert [f.code for f in findings(lightning, {"DLL500"})] == ["DLL500"]
    assert findings(hf, {"DLL500"}) == []


def test_test_files_are_silent():
    src = "import torch\n" + textwrap.dedent(TRAIN_LOOP)
    assert findings(src, ALL, path="tests/test_training.py") == []


# -- DLL501 -------------------------------------------------------------------------------


def test_alias_resolution_and_context_for_seed_fix():
    src = """
    import argparse
    import torch as T

    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int)
    opts = parser.parse_args()
    T.manual_seed(opts.seed)
    """
    f = only(src, "DLL501")
    assert f.context["seed"] == "opts.seed"
    assert f.context["anchor"] == "after" and f.context["anchor_line"] == 8
    assert (f.line, f.column, f.end_column) == (8, 0, len("T.manual_seed(opts.seed)"))


def test_several_rngs_seeded_with_one_value_report_once_and_anchor_after_the_last():
    src = """
    import random
    import numpy as np
    import torch

    def main(args):
        random.seed(args.seed)
        np.random.seed(args.seed)
        torch.manual_seed(args.seed)
        train(args)
    """
    f = only(src, "DLL501")
    assert f.line == 7
    assert f.context["anchor_line"] == 9
    assert f.context["scope"] == "main"


def test_seed_recorded_through_a_copy_of_the_config_is_silent():
    src = """
    import json
    import torch

    def main(args):
        settings = vars(args)
        with open("run.json", "w") as fh:
            json.dump(settings, fh)
        torch.manual_seed(args.seed)
    """
    assert findings(src, {"DLL501"}) == []


def test_seed_logged_through_a_derived_name_is_silent():
    src = """
    import torch

    def main(args, rank):
        seed = args.seed + rank
        torch.manual_seed(seed)
        print(f"rank {rank} uses seed {seed}")
    """
    assert findings(src, {"DLL501"}) == []


def test_per_worker_offset_of_a_base_seed_is_not_judged():
    # SPEC: a per-worker seed is not a finding; the base seed is judged where it is set
    # (pytorch/examples mnist_hogwild: `torch.manual_seed(args.seed + rank)` in train.py).
    src = """
    import torch

    def train(rank, args, model):
        seed = args.seed + rank
        torch.manual_seed(seed)
        torch.cuda.manual_seed(args.seed + dist.get_rank())
    """
    assert findings(src, {"DLL501"}) == []


def test_the_base_seed_of_per_worker_seeds_is_still_judged():
    src = """
    import torch

    def main(args, rank):
        torch.manual_seed(args.seed)
        seed = args.seed + rank
        random.seed(seed)
    """
    f = only(src, "DLL501")
    assert f.context["seed"] == "args.seed"


def test_click_option_seed_is_a_command_line_seed():
    src = """
    import click
    import torch

    @click.command()
    @click.option("--seed", default=0)
    def main(seed):
        torch.manual_seed(seed)
    """
    assert [f.code for f in findings(src, {"DLL501"})] == ["DLL501"]


def test_plain_parameter_seed_is_not_judged():
    src = """
    import torch

    def build(seed):
        torch.manual_seed(seed)
    """
    assert findings(src, {"DLL501"}) == []


def test_imported_project_seed_helper_is_not_judged():
    src = """
    from project.utils import set_seed

    def main(args):
        set_seed(args.seed)
    """
    assert findings(src, {"DLL501"}) == []


def test_local_seed_helper_that_logs_is_silent():
    src = """
    import logging
    import torch

    log = logging.getLogger(__name__)

    def set_seed(seed):
        torch.manual_seed(seed)
        log.info("seed %s", seed)

    def main(args):
        set_seed(args.seed)
    """
    assert findings(src, {"DLL501"}) == []


# -- DLL502 / DLL601 ------------------------------------------------------------------------


def test_dll502_reports_the_seed_call_with_libraries():
    src = "import torch\n\nif __name__ == '__main__':\n    torch.manual_seed(0)\n" + textwrap.indent(TRAIN_LOOP, "    ")
    f = only(src, "DLL502")
    assert f.line == 4
    assert f.context["libraries"] == ["torch"]
    assert f.context["anchor"] == "after" and f.context["anchor_line"] == 4


def test_dll502_alias_assignment_of_cudnn_flags_counts():
    src = "import torch\nimport torch.backends.cudnn as cudnn\n\ntorch.manual_seed(0)\ncudnn.deterministic = True\n" + textwrap.dedent(TRAIN_LOOP)
    assert findings(src, {"DLL502"}) == []


def test_dll601_context_and_version_evidence():
    src = "import torch\n\nif __name__ == '__main__':\n" + textwrap.indent(TRAIN_LOOP, "    ")
    f = only(src, "DLL601")
    assert f.context["entry"] == "main_guard" and f.context["anchor"] == "body_start"
    logged = "import torch\n\nif __name__ == '__main__':\n    print(torch.__version__)\n" + textwrap.indent(TRAIN_LOOP, "    ")
    assert findings(logged, {"DLL601"}) == []


# -- DLL600 -------------------------------------------------------------------------------


def test_config_context_for_fix():
    # (the option is read: one the file never reads changes nothing, and is not a finding)
    src = "import argparse\nimport torch\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr', type=float)\nargs = parser.parse_args()\n" + textwrap.dedent(TRAIN_LOOP) + "optimizer.lr = args.lr\n"
    f = only(src, "DLL600")
    assert f.context["config"] == "args"
    assert f.context["config_kind"] == "argparse"
    assert f.context["anchor"] == "after" and f.context["anchor_line"] == 6
    assert (f.line, f.column) == (6, len("args = "))


def test_config_kinds():
    cases = {
        "import yaml\nwith open('config.yaml') as f:\n    cfg = yaml.safe_load(f)\n": "yaml",
        "import json\nwith open('hparams.json') as f:\n    hparams = json.load(f)\n": "json",
        "from omegaconf import OmegaConf\nconf = OmegaConf.load('c.yaml')\n": "omegaconf",
        "from hydra import compose\ncfg = compose(config_name='train')\n": "hydra",
        "from detectron2.config import get_cfg\ncfg = get_cfg()\ncfg.merge_from_file('r50.yaml')\n": "dict",
    }
    for head, kind in cases.items():
        f = only(head + textwrap.dedent(TRAIN_LOOP), "DLL600")
        assert f.context["config_kind"] == kind, head


def test_config_followed_into_same_module_function_and_self():
    src = """
    import argparse

    class Trainer:
        def __init__(self, opt):
            self.opt = opt

        def describe(self):
            print(self.opt)

        def fit(self):
            for x, y in loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()

    if __name__ == "__main__":
        args = argparse.ArgumentParser().parse_args()
        Trainer(args).fit()
    """
    assert findings(src, {"DLL600"}) == []


def test_config_passed_to_local_function_that_never_logs_it_is_reported():
    src = """
    import argparse

    def train(cfg):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            print(loss.item())

    if __name__ == "__main__":
        args = argparse.ArgumentParser().parse_args()
        train(args)
    """
    assert [f.code for f in findings(src, {"DLL600"})] == ["DLL600"]


def test_flag_only_parser_is_not_hyperparameters():
    src = "import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--fp16', action='store_true')\nargs = parser.parse_args()\n" + textwrap.dedent(TRAIN_LOOP)
    assert findings(src, {"DLL600"}) == []


def test_config_in_a_module_without_training_is_silent():
    src = "import argparse\nargs = argparse.ArgumentParser().parse_args()\nconvert(args.src, args.dst)\n"
    assert findings(src, {"DLL600"}) == []


# -- DLL300 -------------------------------------------------------------------------------


def test_eval_function_range_is_the_def_name_and_metrics_are_named():
    src = """
    import torch

    def evaluate(model, loader):
        model.eval()
        correct, total = 0, 0
        with torch.no_grad():
            for x, y in loader:
                correct += (model(x).argmax(1) == y).sum().item()
                total += y.size(0)
        accuracy = correct / total
    """
    f = only(src, "DLL300")
    assert (f.line, f.column, f.end_column) == (4, 0, len("def evaluate"))
    assert f.context["anchor"] == "after" and f.context["anchor_line"] == 11
    assert "accuracy" in f.context["metrics"]
    assert f.context["scope"] == "evaluate"


def test_embedded_eval_loop_reports_the_loop_and_anchors_after_normalisation():
    src = """
    import torch

    def fit(model, train_loader, val_loader, optimizer, criterion):
        for epoch in range(10):
            model.train()
            for x, y in train_loader:
                optimizer.zero_grad()
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
            print(epoch, loss.item())
            model.eval()
            val_loss = 0.0
            with torch.no_grad():
                for x, y in val_loader:
                    val_loss += criterion(model(x), y).item()
            val_loss /= len(val_loader)
            scheduler.step(val_loss)
    """
    f = only(src, "DLL300")
    assert f.line == 16  # the validation loop header
    assert f.context["anchor_line"] == 18  # after `val_loss /= len(val_loader)`
    assert f.context["metrics"] == ["val_loss"]


def test_lightning_validation_step_context_has_class_bases():
    src = """
    import torch.nn.functional as F
    import lightning as L

    class Lit(L.LightningModule):
        def validation_step(self, batch, batch_idx):
            x, y = batch
            val_loss = F.cross_entropy(self(x), y)
    """
    f = only(src, "DLL300")
    assert f.context["class_bases"] == ["lightning.LightningModule"]
    assert f.context["metrics"] == ["val_loss"]


def test_metric_stored_in_a_caller_container_is_silent():
    src = """
    import torch

    def evaluate(model, loader, results):
        model.eval()
        with torch.no_grad():
            for x, y in loader:
                results["acc"] += (model(x).argmax(1) == y).float().mean().item()
    """
    assert findings(src, {"DLL300"}) == []


def test_collate_fn_is_not_a_metric():
    src = """
    import torch

    @torch.no_grad()
    def embed_all(model, loader):
        model.eval()
        out = []
        for batch in loader:
            batch = collate_fn(batch)
            out.append(model(batch))
        torch.save(torch.cat(out), "embeddings.pt")
    """
    assert findings(src, {"DLL300"}) == []


def test_keras_evaluate_silent_by_default_and_flagged_with_verbose_zero():
    base = "from tensorflow import keras\nmodel = keras.models.load_model('m.keras')\n"
    assert findings(base + "model.evaluate(x, y)\n", {"DLL300"}) == []
    f = only(base + "loss, acc = model.evaluate(x, y, verbose=0)\n", "DLL300")
    assert f.context["metrics"] == ["loss", "acc"]
    assert findings(base + "loss, acc = model.evaluate(x, y, verbose=0)\nprint(loss, acc)\n", {"DLL300"}) == []


# -- non-ASCII ----------------------------------------------------------------------------


def test_non_ascii_columns_are_code_points():
    src = "import argparse\nimport torch\n\nparamètres = argparse.ArgumentParser().parse_args()  # réglages\ntorch.manual_seed(paramètres.graine)\n" + textwrap.dedent(TRAIN_LOOP)
    f = only(src, "DLL600")
    assert f.column == len("paramètres = ")
    assert f.end_column == len("paramètres = argparse.ArgumentParser().parse_args()")
    assert f.context["config"] == "paramètres"
    s = only(src, "DLL501")
    assert s.context["seed"] == "paramètres.graine"
    assert s.end_column == len("torch.manual_seed(paramètres.graine)")


def test_non_ascii_eval_function():
    src = """
    import torch

    def évaluer(modèle, données):
        modèle.eval()
        justes = 0
        with torch.no_grad():
            for x, y in données:
                justes += (modèle(x).argmax(1) == y).sum().item()
        précision = justes / len(données.dataset)
    """
    # Not named like evaluation in English: found through model.eval() + no_grad loop.
    f = only(src, "DLL300")
    assert f.context["metrics"][-1] == "précision"


def test_imported_project_trainer_is_not_judged_for_seeding():
    src = """
    from my_project.training import Trainer

    if __name__ == "__main__":
        trainer = Trainer(config_path="configs/base.yaml")
        trainer.train()
    """
    assert findings(src, {"DLL500", "DLL601"}) == []


def test_parser_of_run_placement_options_only_is_not_hyperparameters():
    src = """
    import argparse
    import yaml

    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/train.yaml")
    parser.add_argument("--local_rank", type=int, default=0)
    args = parser.parse_args()
    with open(args.config) as f:
        cfg = yaml.safe_load(f)
    print(cfg)
    """
    assert findings(textwrap.dedent(src) + TRAIN_LOOP, {"DLL600"}) == []


def test_pre_parser_for_the_config_file_and_merged_yaml_defaults_are_silent():
    src = """
    import argparse
    import yaml

    config_parser = argparse.ArgumentParser(add_help=False)
    config_parser.add_argument("-c", "--config", default="")
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.1)

    def parse():
        args_config, remaining = config_parser.parse_known_args()
        if args_config.config:
            with open(args_config.config) as f:
                cfg = yaml.safe_load(f)
                parser.set_defaults(**cfg)
        args = parser.parse_args(remaining)
        return args

    args = parse()
    print(args)
    """
    assert findings(textwrap.dedent(src) + TRAIN_LOOP, {"DLL600"}) == []


ACCELERATE_EVAL = """
import torch
import evaluate

def main():
    metric = evaluate.load("accuracy")
    for epoch in range(3):
        model.train()
        for batch in train_dataloader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        for batch in eval_dataloader:
            with torch.no_grad():
                outputs = model(**batch)
            predictions = outputs.logits.argmax(dim=-1)
            predictions, references = accelerator.gather_for_metrics((predictions, batch["labels"]))
            metric.add_batch(predictions=predictions, references=references)
        eval_metric = metric.compute()
"""


def test_accelerate_eval_loop_with_stateful_metric():
    f = only(ACCELERATE_EVAL, "DLL300")
    assert f.context["metrics"] == ["eval_metric"]
    assert f.context["anchor_line"] == ACCELERATE_EVAL.splitlines().index("        eval_metric = metric.compute()") + 1
    logged = ACCELERATE_EVAL + '        accelerator.print(f"epoch {epoch}:", eval_metric)\n'
    assert findings(logged, {"DLL300"}) == []


def test_config_file_copied_next_to_the_run_counts_as_recorded():
    src = """
    import argparse
    import os
    import yaml
    from shutil import copyfile

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str)
        opt = parser.parse_args()
        config = yaml.safe_load(open(opt.config))
        save_dir = os.path.join("checkpoints", config["name"])
        copyfile(opt.config, os.path.join(save_dir, "config.yaml"))
    """
    assert findings(textwrap.dedent(src) + textwrap.indent(TRAIN_LOOP, "    "), {"DLL600"}) == []
    not_kept = textwrap.dedent(src).replace('    copyfile(opt.config, os.path.join(save_dir, "config.yaml"))\n', "")
    assert [f.code for f in findings(not_kept + textwrap.indent(TRAIN_LOOP, "    "), {"DLL600"})] == ["DLL600"]


def test_config_assigned_into_a_tracker_run_is_recorded():
    src = """
    import argparse
    import neptune

    args = argparse.ArgumentParser().parse_args()
    run = neptune.init_run(project="me/proj")
    run["parameters"] = vars(args)
    """
    assert findings(textwrap.dedent(src) + TRAIN_LOOP, {"DLL600"}) == []


def test_seed_saved_with_the_checkpoint_is_recorded():
    src = """
    import torch

    def main(args):
        torch.manual_seed(args.seed)
        torch.save({"model": model.state_dict(), "seed": args.seed}, "ckpt.pt")
    """
    assert findings(src, {"DLL501"}) == []


def test_ddp_main_worker_seed_is_judged_but_dataloader_worker_init_is_not():
    ddp = """
    import torch

    def main_worker(gpu, ngpus_per_node, args):
        torch.manual_seed(args.seed)
    """
    assert [f.code for f in findings(ddp, {"DLL501"})] == ["DLL501"]
    worker = """
    import numpy as np

    def worker_init_fn(worker_id, base_seed):
        np.random.seed(base_seed + worker_id)
    """
    assert findings(worker, {"DLL501"}) == []


def test_a_checkpoints_own_config_json_is_not_the_runs_config():
    src = """
    import json
    import os

    with open(os.path.join(args.model_dir, "config.json")) as f:
        config = json.load(f)
    """
    assert findings(textwrap.dedent(src) + TRAIN_LOOP, {"DLL600"}) == []


def test_config_whose_only_logged_fields_are_paths_is_reported():
    # MedSAM shape: the checkpoint paths are printed, the hyperparameters never are.
    src = """
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrained_checkpoint")
    parser.add_argument("--resume")
    parser.add_argument("--lr", type=float)
    args = parser.parse_args()
    medsam_checkpoint = args.pretrained_checkpoint
    print(f"Finetuning with pretrained weights {medsam_checkpoint}")
    print(f"Resuming from checkpoint {args.resume}")
    """
    src = textwrap.dedent(src) + TRAIN_LOOP
    assert [f.code for f in findings(src, {"DLL600"})] == ["DLL600"]


def test_config_fields_copied_to_names_and_logged_count_as_logged():
    src = """
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_epochs", type=int)
    parser.add_argument("--upscale_factor", type=int)
    opt = parser.parse_args()
    NUM_EPOCHS = opt.num_epochs
    UPSCALE_FACTOR = opt.upscale_factor
    print("epochs %d x%d" % (NUM_EPOCHS, UPSCALE_FACTOR))
    """
    src = textwrap.dedent(src) + TRAIN_LOOP
    assert findings(src, {"DLL600"}) == []
