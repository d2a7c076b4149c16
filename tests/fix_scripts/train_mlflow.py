"""Tiny PyTorch training script tracked with MLflow (a local file store)."""
import argparse
import random

import mlflow
import torch
from torch import nn


def train(model, batches, optimizer, epochs):
    for epoch in range(epochs):
        for step, (x, y) in enumerate(batches):
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="model.pt")
    args = parser.parse_args()

    model = nn.Linear(3, 1)
    batches = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(4)]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    with mlflow.start_run():
        random.seed(args.seed)
        torch.manual_seed(args.seed)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model.to(device)
        train(model, batches, optimizer, epochs=2)
        torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
