"""Train LitClassifier with the Lightning Trainer.

    python train.py --max-epochs 5 --seed 42
"""
import argparse
import logging
import platform
import subprocess

import lightning as L
import torch
from lightning.pytorch.callbacks import ModelCheckpoint
from lightning.pytorch.loggers import TensorBoardLogger
from torch.utils.data import DataLoader, random_split
from torchvision import datasets, transforms

from model import LitClassifier

log = logging.getLogger(__name__)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-epochs", type=int, default=5)
    parser.add_argument("--hidden-dim", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    L.seed_everything(args.seed, workers=True)
    tb_logger = TensorBoardLogger("lightning_logs", name="classifier")
    tb_logger.log_hyperparams(vars(args))
    commit = subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], text=True).strip()
    log.info("commit %s, python %s, torch %s", commit, platform.python_version(), torch.__version__)

    dataset = datasets.MNIST("../data", train=True, download=True, transform=transforms.ToTensor())
    train_set, val_set = random_split(dataset, [55000, 5000], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=4)
    val_loader = DataLoader(val_set, batch_size=512, num_workers=4)

    model = LitClassifier(hidden_dim=args.hidden_dim, learning_rate=args.lr)
    checkpoint = ModelCheckpoint(monitor="val_acc", mode="max", save_top_k=2)
    trainer = L.Trainer(
        max_epochs=args.max_epochs,
        accelerator="auto",
        devices=1,
        logger=tb_logger,
        callbacks=[checkpoint],
        deterministic=True,
    )
    trainer.fit(model, train_loader, val_loader)
    trainer.save_checkpoint("classifier-final.ckpt")
    log.info("best checkpoint %s (val_acc %.4f)", checkpoint.best_model_path, checkpoint.best_model_score)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
