"""Training-loop rules on the shapes real scripts take (found in a precision review of
public training scripts: minGPT's callbacks, torchvision's MetricLogger, accelerate's
examples, the DDP tutorial's step helper, RL loops)."""
from __future__ import annotations

import textwrap

from flake8_dllog.config import Config
from flake8_dllog.engine import check_source


def codes(src: str, selected=("DLL100", "DLL101", "DLL102")) -> list[tuple[str, int]]:
    result = check_source(textwrap.dedent(src), "train.py", Config(), codes=frozenset(selected))
    assert result.error is None
    return [(f.code, f.line) for f in result.findings]


def test_callbacks_reading_the_loss_from_self_are_undecidable_so_silent():
    src = """
    class Trainer:
        def trigger_callbacks(self, event):
            for callback in self.callbacks:
                callback(self)

        def run(self):
            for x, y in self.loader:
                logits, self.loss = self.model(x, y)
                self.model.zero_grad(set_to_none=True)
                self.loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.trigger_callbacks("on_batch_end")
    """
    assert codes(src) == []


def test_words_inside_names_are_not_logging():
    # `parameters` contains "meter", `log_softmax` contains "log": neither reports anything.
    src = """
    for epoch in range(5):
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            correct = (torch.log_softmax(logits, -1).argmax(-1) == y).sum()
    """
    assert codes(src) == [("DLL100", 2)]


def test_project_logger_wrapping_the_loop_may_log_memory():
    src = """
    def train_one_epoch(model, optimizer, data_loader, device, epoch):
        metric_logger = utils.MetricLogger(delimiter="  ")
        for image, target in metric_logger.log_every(data_loader, 10, f"Epoch: [{epoch}]"):
            image, target = image.to(device), target.to(device)
            loss = criterion(model(image), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            metric_logger.update(loss=loss.item())

    model = Net().cuda()
    """
    assert codes(src) == []


def test_backward_through_accelerator_does_not_make_everything_the_loss():
    src = """
    def training_function(model, optimizer, train_dl, eval_dl, metric, accelerator):
        for epoch in range(3):
            for batch in train_dl:
                loss = model(**batch).loss
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            for batch in eval_dl:
                with torch.no_grad():
                    preds = model(**batch).logits.argmax(dim=-1)
                metric.add_batch(predictions=preds, references=batch["labels"])
            accelerator.print(f"epoch {epoch}:", metric.compute())
    """
    assert codes(src) == [("DLL101", 3)]


def test_loss_kept_inside_a_step_helper_is_reported_without_a_fix():
    src = """
    class Trainer:
        def _run_batch(self, source, targets):
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(source), targets)
            loss.backward()
            self.optimizer.step()

        def _run_epoch(self, epoch):
            print(f"Epoch {epoch} | Steps: {len(self.train_data)}")
            for source, targets in self.train_data:
                self._run_batch(source, targets)
    """
    result = check_source(textwrap.dedent(src), "train.py", Config(), codes=frozenset({"DLL100", "DLL101"}))
    [finding] = result.findings
    assert (finding.code, finding.line, finding.fixable) == ("DLL101", 11, False)
    assert finding.context["loss"] == "loss" and finding.context["anchor_line"] == 6


def test_reinforcement_learning_loop_logging_the_reward_is_monitored():
    src = """
    running_reward = 10
    for i_episode in count(1):
        state, ep_reward = env.reset(), 0
        for t in range(1, 10000):
            action = select_action(state)
            state, reward, done, _ = env.step(action)
            ep_reward += reward
            if done:
                break
        running_reward = 0.05 * ep_reward + 0.95 * running_reward
        optimizer.zero_grad()
        policy_loss = torch.cat(policy_losses).sum()
        policy_loss.backward()
        optimizer.step()
        if i_episode % 10 == 0:
            print(f"Episode {i_episode}\\tLast reward: {ep_reward:.2f}\\tAverage reward: {running_reward:.2f}")
    """
    assert codes(src) == []


def test_nested_loops_report_once_at_the_nest():
    src = """
    for epoch in range(10):
        for step, (x, y) in enumerate(loader):
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
    """
    result = check_source(textwrap.dedent(src), "train.py", Config(), codes=frozenset({"DLL100"}))
    [finding] = result.findings
    assert (finding.line, finding.column, finding.end_line) == (2, 0, 2)
    assert finding.context["step"] == "step" and finding.context["epoch"] == "epoch"
    assert finding.context["loss"] == "loss" and finding.context["anchor_line"] == 3


def test_non_ascii_source_columns_are_code_points():
    src = 'def train():\n    """训练 🚀"""\n    for x in loader:  # 数据\n        loss = model(x); loss.backward(); optimizer.step()\n'
    result = check_source(src, "train.py", Config(), codes=frozenset({"DLL100"}))
    [finding] = result.findings
    assert (finding.line, finding.column) == (3, 4)
    assert finding.end_column == len("    for x in loader")
