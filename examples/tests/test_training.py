"""Unit tests for the example training code. Tests seed, save, load and move tensors
all the time; none of that is a training run, so dllog stays silent here."""
import pytest
import torch
import torch.nn.functional as F
from torch import nn


@pytest.fixture
def tiny_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


def test_a_few_steps_reduce_the_loss(tiny_model):
    x = torch.randn(32, 4)
    y = (x.sum(dim=1) > 0).long()
    optimizer = torch.optim.SGD(tiny_model.parameters(), lr=0.5)
    first = None
    for _ in range(20):
        optimizer.zero_grad()
        loss = F.cross_entropy(tiny_model(x), y)
        loss.backward()
        optimizer.step()
        first = first if first is not None else loss.item()
    assert loss.item() < first


def test_checkpoint_round_trip(tmp_path, tiny_model):
    path = tmp_path / "weights.pt"
    torch.save(tiny_model.state_dict(), path)
    restored = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    restored.load_state_dict(torch.load(path))
    for a, b in zip(tiny_model.parameters(), restored.parameters()):
        assert torch.equal(a, b)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_forward_on_gpu(tiny_model):
    model = tiny_model.cuda()
    out = model(torch.randn(3, 4, device="cuda"))
    assert out.shape == (3, 2)


class TestEvaluation:
    def test_eval_mode_has_no_dropout_noise(self):
        torch.manual_seed(1)
        model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
        model.eval()
        x = torch.randn(2, 4)
        with torch.no_grad():
            assert torch.equal(model(x), model(x))
