"""Checkpoint save/load (DLL200, DLL201, DLL210) and device placement (DLL400) beyond the
YAML examples: aliases, non-ASCII columns, the window, project vocabulary, wrappers, and the
context keys a fix is built from."""
from __future__ import annotations

import textwrap

import pytest

from flake8_dllog.config import Config, parse_config
from flake8_dllog.engine import check_source

CODES = frozenset({"DLL200", "DLL201", "DLL210", "DLL400"})

TRAIN_LOOP = """
for epoch in range(args.epochs):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
"""


def check(source: str, config: Config | None = None, path: str = "train.py", codes=CODES):
    result = check_source(textwrap.dedent(source), path, config or Config(), codes=frozenset(codes))
    assert result.error is None, result.error
    return result.findings


def only(findings, code):
    return [f for f in findings if f.code == code]


# -- import aliases -------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import torch as T\nT.save(model.state_dict(), args.out)\n",
        "from torch import save\nsave(model.state_dict(), args.out)\n",
        "from torch import save as persist\npersist(model.state_dict(), args.out)\n",
        "import torch\ntorch.save(model.state_dict(), args.out)\n",
    ],
)
def test_save_aliases_resolve_to_torch_save(source):
    [finding] = only(check(source), "DLL200")
    assert finding.context["call"] == "torch.save"
    assert finding.context["path"] == "args.out"
    assert finding.context["saved"] == "model.state_dict()"


def test_load_alias_and_inline_load_state_dict():
    [finding] = only(check("import torch as T\nnet.load_state_dict(T.load(args.weights, map_location='cpu'))\n"), "DLL210")
    assert finding.context["call"] == "torch.load"
    assert finding.context["path"] == "args.weights"
    assert finding.context["target"] == "net"


def test_a_local_function_named_save_is_not_torch_save():
    source = """
    def save(obj, path):
        with open(path, "w") as fh:
            fh.write(str(obj))

    save(results, args.out)
    """
    assert check(source) == []


# -- positions ----------------------------------------------------------------------------


def test_columns_are_code_points_on_non_ascii_lines():
    source = 'état = model.state_dict(); torch.save(état, chemin_sortie)  # «sauvegarde»\n'
    [finding] = only(check(source), "DLL200")
    line = source.splitlines()[0]
    assert finding.line == 1
    assert finding.column == line.index("torch.save")
    assert finding.end_column == line.index(")  #") + 1
    assert finding.context["saved"] == "état"


def test_range_is_the_call_not_the_statement():
    source = """
    if is_best:
        torch.save(
            {"model": model.state_dict(), "epoch": epoch},
            best_path,
        )
    """
    [finding] = only(check(source), "DLL200")
    assert (finding.line, finding.column) == (3, 4)
    assert finding.end_line == 6
    assert finding.context["anchor"] == "after"
    assert finding.context["anchor_line"] == 3


# -- the window ------------------------------------------------------------------------------

FAR_LOG = """
torch.save(model.state_dict(), ckpt_path)
a = 1
b = 2
c = 3
d = 4
logger.info("saved %s", other)
"""


def test_window_is_configurable():
    assert only(check(FAR_LOG), "DLL200")
    assert not only(check(FAR_LOG, Config(window=5)), "DLL200")


def test_window_from_parsed_config():
    cfg = parse_config({"window": 6}, "pyproject.toml")
    assert not only(check(FAR_LOG, cfg), "DLL200")


def test_log_far_away_that_names_the_path_counts():
    source = """
    def main(args):
        torch.save(model.state_dict(), args.ckpt)
        a = 1
        b = 2
        c = 3
        d = 4
        print(f"done; weights are in {args.ckpt}")
    """
    assert not only(check(source), "DLL200")


def test_log_inside_a_neighbouring_loop_is_not_evidence():
    source = """
    def main(args):
        for epoch in range(args.epochs):
            print(epoch)
        torch.save(model.state_dict(), args.ckpt)

    if __name__ == "__main__":
        main(parser.parse_args())
    """
    assert only(check(source), "DLL200")


# -- project vocabulary -------------------------------------------------------------------------


def test_project_save_helper_from_config():
    source = "import torch\nsave_ckpt(model, args.out)\n"
    assert not check(source)
    cfg = parse_config({"vocabulary": {"save": ["save_ckpt"]}}, "pyproject.toml")
    [finding] = only(check(source, cfg), "DLL200")
    assert finding.context["path"] == "args.out"


def test_project_logging_helper_from_config_is_evidence():
    source = "torch.save(model.state_dict(), args.out)\nreport_progress(args.out)\n"
    assert only(check(source), "DLL200")
    cfg = parse_config({"vocabulary": {"logging": ["report_progress"]}}, "pyproject.toml")
    assert not only(check(source, cfg), "DLL200")


def test_project_load_exclusion_applies_to_save_pretrained_too():
    source = "vocoder.save_pretrained(args.out)\nvocoder2 = Vocoder.from_pretrained(args.src)\n"
    assert len(check(source)) == 2
    cfg = parse_config({"vocabulary": {"load_exclusions": ["**.*vocoder*.from_pretrained", "**.Vocoder.from_pretrained"]}}, "pyproject.toml")
    assert check(source, cfg) == []


def test_print_is_not_evidence_when_disabled():
    source = "torch.save(model.state_dict(), args.out)\nprint('saved', args.out)\n"
    assert not check(source)
    assert only(check(source, Config(print_is_logging=False)), "DLL200")


# -- wrappers and callers ------------------------------------------------------------------------


def test_wrapper_reported_inside_it_when_no_caller_logs():
    source = """
    def save_checkpoint(state, path):
        torch.save(state, path)

    def main(args):
        save_checkpoint({"model": model.state_dict()}, args.out)

    if __name__ == "__main__":
        main(parser.parse_args())
    """
    [finding] = only(check(source), "DLL200")
    assert finding.line == 3
    assert finding.context["scope"] == "save_checkpoint"
    assert finding.context["path"] == "path"


def test_caller_logging_before_the_call_counts():
    source = """
    def load_weights(model, path):
        model.load_state_dict(torch.load(path))

    def main(args):
        logger.info("loading %s", args.weights)
        load_weights(model, args.weights)
    """
    assert not check(source)


def test_wrapper_two_levels_up():
    source = """
    def _write(state, path):
        torch.save(state, path)

    def save_checkpoint(state, path):
        _write(state, path)

    def main(args):
        save_checkpoint({"model": model.state_dict()}, args.out)
        logger.info("checkpoint saved to %s", args.out)
    """
    assert not check(source)


def test_method_wrapper_called_through_self():
    source = """
    class Trainer:
        def _save(self, path):
            torch.save({"model": self.model.state_dict(), "step": self.step}, path)

        def fit(self):
            for batch in self.loader:
                self.step += 1
            self._save(self.cfg.ckpt)
            self.logger.info("saved %s", self.cfg.ckpt)
    """
    assert not check(source)


def test_literal_default_of_a_wrapper_parameter_is_a_literal_path():
    source = """
    def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
        torch.save(state, filename)

    save_checkpoint({"model": model.state_dict()}, True)
    """
    assert not check(source)


def test_module_constant_path_is_literal():
    source = 'CKPT = "weights/best.pt"\ntorch.save(model.state_dict(), CKPT)\n'
    assert not only(check(source), "DLL200")


def test_with_open_file_handle_reports_the_opened_path():
    source = """
    with open(args.save, "wb") as f:
        torch.save(model, f)
    """
    [finding] = only(check(source), "DLL200")
    assert finding.context["path"] == "args.save"


# -- DLL201 context --------------------------------------------------------------------------------


def test_bare_weights_context_names_in_scope():
    source = (
        "import argparse\n"
        "parser = argparse.ArgumentParser()\n"
        "args = parser.parse_args()\n"
        "torch.manual_seed(args.seed)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        + TRAIN_LOOP
        + "torch.save(model.state_dict(), args.out)\n"
    )
    [finding] = only(check(source), "DLL201")
    ctx = finding.context
    assert ctx["call"] == "torch.save"
    assert ctx["saved"] == "model.state_dict()"
    assert ctx["path"] == "args.out"
    assert ctx["epoch"] == "epoch"
    assert ctx["optimizer"] == "optimizer"
    assert ctx["config"] == "args"
    assert ctx["seed"] == "args.seed"


def test_bare_weights_in_a_file_that_does_not_train_is_silent():
    assert not only(check("torch.save(model.state_dict(), args.out)\n"), "DLL201")


def test_metadata_passed_by_the_caller_into_the_file_name():
    source = (
        TRAIN_LOOP
        + """
def save_weights_to(model, path):
    torch.save(model.state_dict(), path)

save_weights_to(model, f"{args.out}/epoch{epoch}.pt")
"""
    )
    assert not only(check(source), "DLL201")


def test_keras_save_weights_context():
    source = """
    model.fit(x, y, epochs=args.epochs)
    model.save_weights(os.path.join(args.out, "w.h5"))
    """
    [finding] = only(check(source), "DLL201")
    assert finding.context["call"] == "save_weights"
    assert finding.context["saved"] == "model"


# -- DLL210 context ---------------------------------------------------------------------------------


def test_load_context_points_the_anchor_at_load_state_dict():
    source = """
    ckpt = torch.load(args.resume, map_location="cpu")
    missing = model.load_state_dict(ckpt["model"], strict=False)
    start = 0
    """
    [finding] = only(check(source), "DLL210")
    ctx = finding.context
    assert (finding.line, finding.column) == (2, 7)
    assert ctx["path"] == "args.resume"
    assert ctx["target"] == "model"
    assert ctx["result"] == "ckpt"
    assert ctx["load_result"] == "missing"
    assert ctx["anchor_line"] == 3
    assert ctx["call"] == "torch.load"


def test_from_pretrained_context():
    source = "model = AutoModel.from_pretrained(args.model_name_or_path)\n"
    [finding] = only(check(source), "DLL210")
    assert finding.context["path"] == "args.model_name_or_path"
    assert finding.context["result"] == "model"


def test_project_model_class_from_pretrained_is_silent():
    # nanoGPT-style: `from model import GPT`; GPT.from_pretrained prints what it loads.
    source = "from model import GPT\nmodel = GPT.from_pretrained(args.init_from)\n"
    assert not check(source)


def test_same_file_class_from_pretrained_is_judged_by_its_body():
    source = """
    class GPT(nn.Module):
        @classmethod
        def from_pretrained(cls, name):
            print("loading weights from pretrained gpt: %s" % name)
            return cls()

    model = GPT.from_pretrained(args.init_from)
    """
    assert not check(source)


# -- DLL400 ------------------------------------------------------------------------------------------


def test_device_context_and_once_per_scope():
    source = """
    def main(args):
        device = torch.device(args.device)
        encoder = Encoder().to(device)
        decoder = Decoder().to(device)

    fire.Fire(main)
    """
    [finding] = only(check(source), "DLL400")
    assert finding.line == 4
    assert finding.context["device"] == "device"
    assert finding.context["model"] == "encoder"
    assert finding.context["anchor"] == "after"
    assert finding.context["anchor_line"] == 4


def test_bare_cuda_gives_a_runtime_device_expression():
    [finding] = only(check("if torch.cuda.is_available():\n    model.cuda()\n"), "DLL400")
    assert finding.context["device"] == "next(model.parameters()).device"


def test_nn_module_class_defined_in_file_is_a_model():
    source = """
    class Scorer(nn.Module):
        pass

    scorer = Scorer()
    scorer.to(args.device)
    """
    assert only(check(source), "DLL400")


def test_unknown_object_is_not_a_model():
    assert not check("thing = make_thing()\nthing.to(args.device)\n")


def test_lightning_self_device_is_silent():
    source = """
    class Lit(pl.LightningModule):
        def setup(self, stage):
            self.teacher.to(self.device)
    """
    assert not check(source)


def test_device_logged_in_the_function_that_created_it():
    source = """
    class Trainer:
        def __init__(self, cfg):
            self.device = torch.device(cfg.device)
            logger.info("device: %s", self.device)

        def setup(self):
            self.model.to(self.device)
    """
    assert not check(source)


# -- test code and odd input ---------------------------------------------------------------------------


def test_test_files_are_silent():
    source = "torch.save(model.state_dict(), args.out)\nmodel.cuda()\n"
    assert check(source)
    assert check(source, path="tests/test_io.py") == []


@pytest.mark.parametrize(
    "source",
    [
        "torch.save()\n",
        "torch.load()\n",
        "model.to()\n",
        "model.cuda\n",
        "model.load_state_dict()\n",
        "x.from_pretrained(*names, **kw)\n",
        "torch.save(*parts)\n",
        "f()(g).save_pretrained(h)\n",
        "model.to(**placement)\n",
        "(lambda: torch.save(a, b))()\n",
    ],
)
def test_odd_calls_do_not_crash(source):
    check(source)


# -- values chosen by callers outside the file ----------------------------------------------------------


def test_library_helper_with_caller_chosen_device_is_silent():
    # timm-style EMA: the device is whatever the (unseen) caller passes.
    source = """
    class ModelEma:
        def __init__(self, model, decay=0.9999, device=None):
            self.module = deepcopy(model)
            if device is not None:
                self.module.to(device=device)
    """
    assert not check(source)


def test_unreachable_save_path_default_none_is_silent():
    source = """
    def convert(model, save_path=None):
        if save_path is not None:
            torch.save(model.state_dict(), save_path)
        return model

    deploy = convert(net)
    """
    assert not check(source)


def test_spawned_worker_is_an_entry_point():
    source = """
    def main_worker(gpu, args):
        model = resnet50()
        if torch.cuda.is_available():  # (an unconditional `.cuda(gpu)` cannot fall back to the CPU)
            model.cuda(gpu)

    def main():
        args = parser.parse_args()
        mp.spawn(main_worker, nprocs=4, args=(args,))
    """
    assert only(check(source), "DLL400")


def test_run_metadata_helper_records_the_source_checkpoint_and_the_run():
    # A project's save_meta(...) writes the loaded checkpoint and the run's config to JSON.
    source = (
        "def main(args):\n"
        "    model.load_state_dict(torch.load(args.ckpt, map_location='cpu'))\n"
        + textwrap.indent(TRAIN_LOOP, "    ")
        + "    torch.save(model.state_dict(), out / 'final.pt')\n"
        "    save_meta(out / 'meta.json', {'source_ckpt': args.ckpt, 'epochs': args.epochs})\n"
        "\nmain(parse_args())\n"
    )
    codes = {f.code for f in check(source)}
    assert "DLL210" not in codes and "DLL201" not in codes


def test_torch_jit_save_is_not_a_full_keras_model_save():
    source = (
        TRAIN_LOOP
        + "torch.save(model.state_dict(), args.out)\n"
        + "torch.jit.save(torch.jit.script(model), args.script_out)\n"
    )
    assert only(check(source), "DLL201")


def test_whole_config_printed_at_start_records_a_path_taken_from_it():
    source = """
    def train(args):
        torch.save(model.state_dict(), os.path.join(args.out_dir, "model.pt"))

    if __name__ == "__main__":
        args = parser.parse_args()
        print(args)
        train(args)
    """
    assert not only(check(source), "DLL200")


def test_printing_one_other_field_of_the_config_is_not_evidence():
    source = """
    def train(args):
        torch.save(model.state_dict(), os.path.join(args.out_dir, "model.pt"))

    if __name__ == "__main__":
        args = parser.parse_args()
        print(args.lr)
        a = 1
        b = 2
        c = 3
        d = 4
        train(args)
    """
    assert only(check(source), "DLL200")


def test_the_load_call_arguments_are_not_mentions_of_its_result():
    source = """
    def setup(self):
        checkpoint = torch.load(ckpt_path, map_location=self.device)
        a = 1
        b = 2
        c = 3
        d = 4
        e = 5
        f = 6
        print("device", self.device)
    """
    assert only(check(source), "DLL210")


def test_parameter_handed_down_from_an_unseen_caller_is_silent():
    # mlflow-style: the public loader's caller is elsewhere; the helper gets its path.
    source = """
    def _load_model(path, device=None):
        model = torch.load(os.path.join(path, "model.pth"))
        model.to(device)
        return model

    def load_model(model_uri, device=None):
        local_path = download(model_uri)
        return _load_model(local_path, device=device)
    """
    assert not check(source)


def test_a_class_saving_its_own_records_is_not_a_checkpoint():
    assert not check("SessionManager.save(session_id, session)\n")


@pytest.mark.parametrize(
    "source",
    [
        "manager.save()\n",  # Django
        "self.manager.save()\n",
        "SiteManager.site_manager.save()\n",
        "user_model.save()\n",
        "checkpoint.restore(state)\nconfig_manager.save()\n",
    ],
)
def test_non_dl_code_is_silent(source):
    assert check(source) == []


def test_checkpoint_manager_save_in_tf_code():
    source = """
    import tensorflow as tf
    manager = tf.train.CheckpointManager(ckpt, args.ckpt_dir, max_to_keep=3)
    manager.save()
    """
    assert only(check(source), "DLL200")


@pytest.mark.parametrize(
    "source",
    [
        "torch.save(model.state_dict(), PATH)\n",
        "from config import MODEL_PATH\nmodel.load_state_dict(torch.load(MODEL_PATH))\n",
        "torch.save(model.state_dict(), cfg.CHECKPOINT_FILE)\n",
        "torch.save(model.state_dict(), os.path.join(OUT_DIR, 'best.pt'))\n",
    ],
)
def test_all_caps_constants_are_paths_written_in_the_source(source):
    assert not [f for f in check(source) if f.code in ("DLL200", "DLL210")]


def test_reloading_the_checkpoint_this_run_wrote_is_not_an_unknown_load():
    source = (
        TRAIN_LOOP
        + "    if val_loss < best:\n"
        + "        torch.save(model.state_dict(), args.model_path)\n"
        + "model.load_state_dict(torch.load(args.model_path, map_location='cpu'))\n"
    )
    assert not only(check(source), "DLL210")


def test_run_name_in_an_attribute_bound_file_name_is_metadata():
    source = (
        "args.ckpt_path = ckpt_dir / f'best_model_{args.exp_name}.pt'\n"
        + TRAIN_LOOP
        + "torch.save(model.state_dict(), args.ckpt_path)\n"
    )
    assert not only(check(source), "DLL201")


def test_device_bound_to_cpu_is_not_an_accelerator():
    source = 'device = torch.device("cpu")\nmodel = VAE()\nmodel = model.to(device)\n'
    assert not only(check(source), "DLL400")


def test_str_of_a_constant_path_is_literal():
    source = "state = torch.load(str(CHECKPOINT), map_location='cpu')\nmodel.load_state_dict(state)\n"
    assert not only(check(source), "DLL210")


def test_tf_print_is_a_log():
    source = """
    import tensorflow as tf
    if config.load.opt:
        tf.print('Loading saved checkpoint from ' + checkpoint_load)
        ckpt.restore(checkpoint_load)
    """
    assert not check(source)


def test_prediction_cli_loading_the_model_named_on_the_command_line_is_silent():
    source = """
    import argparse
    import tensorflow as tf

    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", required=True)
    args = parser.parse_args()
    model = tf.keras.models.load_model(args.checkpoint)
    text = generate(model, args.prompt)
    print(f"Generated text: {text}")
    """
    assert not only(check(source), "DLL210")


def test_evaluation_cli_loading_a_checkpoint_is_flagged():
    source = """
    import argparse
    import torch

    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--ckpt", required=True)
        args = parser.parse_args()
        model = ReIDModel().to("cpu")
        model.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
        evaluate(model, query_dataset, gallery_dataset)

    if __name__ == "__main__":
        main()
    """
    assert only(check(source), "DLL210")


def test_bare_weights_saved_by_either_branch_of_an_if_is_one_finding():
    # Both branches write the same file: one checkpoint, one finding (the first branch).
    findings = check(
        """
        import tensorflow as tf

        def train(model, fake_model, out_file, freeze_weights):
            for epoch in range(10):
                model.fit(x, y, epochs=1)
                if freeze_weights:
                    fake_model.set_weights(model.get_weights())
                    fake_model.save_weights(out_file)
                else:
                    model.save_weights(out_file)
                if epoch % 5 == 0:
                    model.save_weights("every_five.h5")
                else:
                    model.save_weights("other.h5")
        """
    )
    assert [f.line for f in only(findings, "DLL201")] == [9, 13, 15]


def test_bare_weights_saved_side_by_side_are_one_finding():
    # Generator and discriminator written together are one checkpoint.
    findings = check(
        """
        import torch

        def train(generator, discriminator, loader, optimizer, epochs):
            for epoch in range(epochs):
                for x in loader:
                    loss = step(generator, discriminator, x)
                    loss.backward()
                    optimizer.step()
                torch.save(generator.state_dict(), "best_G.pth")
                torch.save(discriminator.state_dict(), "best_D.pth")
                print(f"Models saved at epoch {epoch + 1}")
            torch.save(generator.state_dict(), "final_G.pth")
            torch.save(discriminator.state_dict(), "final_D.pth")
        """
    )
    assert [f.line for f in only(findings, "DLL201")] == [10, 13]


def test_a_save_in_an_if_right_after_a_reported_group_is_part_of_it():
    findings = check(
        """
        import torch

        def save_all(trainer, save_name, double_classifiers):
            torch.save(trainer.mask.state_dict(), save_name + "_mask.pt")
            torch.save(trainer.classifier.state_dict(), save_name + "_classifier.pt")
            if double_classifiers:
                torch.save(trainer.unmask_classifier.state_dict(), save_name + "_unmask.pt")

        save_all(build_trainer(), make_name(), True)
        """
    )
    assert [f.line for f in only(findings, "DLL200")] == [5]


def test_one_best_checkpoint_split_over_if_elif_is_one_dll201():
    source = """
    def train(model, optimizer, loader, epochs):
        history = []
        for epoch in range(epochs):
            for x, y in loader:
                loss = model(x, y)
                loss.backward()
                optimizer.step()
            print(epoch, loss.item())
            if epoch == 0:
                torch.save(model.state_dict(), "./models/model.pth")
            elif loss.item() < min(history):
                torch.save(model.state_dict(), "./models/model.pth")
            history.append(loss.item())
    """
    assert [f.line for f in only(check(source), "DLL201")] == [11]


def test_a_load_retried_in_an_except_branch_is_one_finding():
    # (the except branch reloads the same file with "module." stripped: one log line fixes both)
    source = """
    import argparse
    import os
    import torch
    from models import Net

    parser = argparse.ArgumentParser()
    parser.add_argument('--model-dir', default='./weights')
    args = parser.parse_args()

    model = Net()
    model_file = os.path.join(args.model_dir, 'best.pth')
    try:
        model.load_state_dict(torch.load(model_file), strict=True)
    except Exception:
        state_dict = torch.load(model_file)
        state_dict = {k[7:] if k.startswith('module.') else k: v for k, v in state_dict.items()}
        model.load_state_dict(state_dict, strict=True)
    model.eval()
    probs = predict(model)
    acc = (probs.argmax(1) == labels).mean()
    print('accuracy', acc)
    """
    found = only(check(source), "DLL210")
    assert [f.line for f in found] == [14]


def test_a_custom_load_fed_the_dict_of_a_file_load_is_not_a_second_finding():
    source = """
    import os
    import torch
    from models import build_model

    if __name__ == "__main__":
        model = build_model()
        ckpt = torch.load(os.path.join(args.model_dir, "ckpt_best.pth"), map_location="cpu")
        model.load_weights(ckpt["model_state_dict"])
        model.eval()
        with torch.no_grad():
            for images, labels in loader:
                acc = (model(images).argmax(1) == labels).float().mean()
        print("accuracy", acc)
    """
    assert [f.line for f in only(check(source), "DLL210")] == [8]


def test_self_device_chosen_once_is_one_finding_per_class():
    # `self.device` is chosen once in __init__; train() and evaluate() both move the model
    # there. One finding, at the first move: a log there is what the others then count.
    findings = check(
        """
        import argparse
        import torch

        class Runner:
            def __init__(self, gpu_id):
                self.device = torch.device("cpu" if gpu_id is None else f"cuda:{gpu_id}")

            def train(self, model, loader, optimizer):
                model.to(self.device)
                for x, y in loader:
                    optimizer.zero_grad()
                    loss = model(x.to(self.device)).sum()
                    loss.backward()
                    optimizer.step()
                    print(loss.item())

            def evaluate(self, model, loader):
                model.to(self.device)
                return sum(model(x.to(self.device)).sum().item() for x in loader)

        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--gpu", type=int, default=None)
            args = parser.parse_args()
            runner = Runner(args.gpu)
            runner.train(build_model(), loader(), opt())
            runner.evaluate(build_model(), loader())
        """,
        codes={"DLL400"},
    )
    assert [(f.code, f.line) for f in findings] == [("DLL400", 10)]
