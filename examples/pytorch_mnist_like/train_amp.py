"""Mixed-precision variant of train.py that tracks the run with Weights & Biases.

Everything a later reader needs is recorded: config, seed, code version, device,
per-step loss, GPU memory, validation metrics and where each checkpoint went.
"""
import argparse
import logging
import os
import subprocess

import torch
import torch.nn.functional as F
import wandb
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from train import Net

logger = logging.getLogger(__name__)


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def train_one_epoch(model, loader, optimizer, scaler, device):
    model.train()
    losses = AverageMeter()
    for images, targets in loader:
        images, targets = images.to(device, non_blocking=True), targets.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = F.nll_loss(model(images), targets)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        losses.update(loss.item(), images.size(0))
    return losses.avg


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    total_loss, correct = 0.0, 0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        output = model(images)
        total_loss += F.nll_loss(output, targets, reduction="sum").item()
        correct += (output.argmax(dim=1) == targets).sum().item()
    n = len(loader.dataset)
    return total_loss / n, correct / n


def save_checkpoint(path, model, optimizer, scaler, epoch, args):
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scaler": scaler.state_dict(),
            "epoch": epoch,
            "config": vars(args),
        },
        path,
    )
    logger.info("saved checkpoint for epoch %d to %s", epoch, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--resume", default=None)
    parser.add_argument("--out-dir", default="checkpoints")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)

    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True)

    commit = subprocess.check_output(["git", "rev-parse", "HEAD"], text=True).strip()
    wandb.init(project="mnist-amp", config={**vars(args), "seed": 0, "commit": commit})

    device = torch.device("cuda")
    logger.info("device %s (%s), torch %s", device, torch.cuda.get_device_name(device), torch.__version__)
    model = Net().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    scaler = torch.cuda.amp.GradScaler()
    start_epoch = 0
    if args.resume:
        state = torch.load(args.resume, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"] + 1
        logger.info("resumed from %s at epoch %d", args.resume, start_epoch)

    transform = transforms.ToTensor()
    train_loader = DataLoader(
        datasets.MNIST("../data", train=True, download=True, transform=transform),
        batch_size=args.batch_size,
        shuffle=True,
    )
    val_loader = DataLoader(datasets.MNIST("../data", train=False, transform=transform), batch_size=1024)

    os.makedirs(args.out_dir, exist_ok=True)
    for epoch in range(start_epoch, args.epochs):
        train_loss = train_one_epoch(model, train_loader, optimizer, scaler, device)
        val_loss, val_acc = validate(model, val_loader, device)
        wandb.log(
            {
                "epoch": epoch,
                "train/loss": train_loss,
                "val/loss": val_loss,
                "val/acc": val_acc,
                "gpu/max_memory_mb": torch.cuda.max_memory_allocated(device) / 2**20,
            }
        )
        save_checkpoint(os.path.join(args.out_dir, f"epoch{epoch:03d}.pt"), model, optimizer, scaler, epoch, args)
    wandb.finish()


if __name__ == "__main__":
    main()
