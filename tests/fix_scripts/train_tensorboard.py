"""Tiny PyTorch training script that writes TensorBoard summaries, with no logger at all."""
import argparse
import os

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.tensorboard import SummaryWriter


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--logdir", default="runs")
    parser.add_argument("--out", default="checkpoints")
    args = parser.parse_args()

    x = torch.from_numpy(np.random.randn(32, 4).astype(np.float32))
    y = (x[:, :1] > 0).float()
    loader = DataLoader(TensorDataset(x, y), batch_size=8)
    model = nn.Linear(4, 1)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    writer = SummaryWriter(log_dir=args.logdir)

    for epoch in range(2):
        for i, (xb, yb) in enumerate(loader):
            optimizer.zero_grad()
            loss = nn.functional.binary_cross_entropy_with_logits(model(xb.to(device)), yb.to(device))
            loss.backward()
            optimizer.step()
        writer.add_histogram("weights", model.weight, epoch)

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "last.pt")
    torch.save(model.state_dict(), path)
    writer.close()


if __name__ == "__main__":
    main()
