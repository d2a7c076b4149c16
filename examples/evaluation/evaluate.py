"""Evaluate a trained ResNet-18 checkpoint on the CIFAR-10 test split.

    python evaluate.py --checkpoint runs/resnet18/best.pt
"""
import argparse
import json
import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.models import resnet18

logger = logging.getLogger("evaluate")

CIFAR_MEAN = (0.4914, 0.4822, 0.4465)
CIFAR_STD = (0.2470, 0.2435, 0.2616)


def load_model(checkpoint_path, device):
    model = resnet18(num_classes=10)
    state = torch.load(checkpoint_path, map_location="cpu")
    model.load_state_dict(state["model"] if "model" in state else state)
    model.to(device)
    model.eval()
    return model


@torch.no_grad()
def evaluate(model, loader, device):
    criterion = nn.CrossEntropyLoss(reduction="sum")
    total_loss, correct, seen = 0.0, 0, 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        total_loss += criterion(logits, labels).item()
        correct += (logits.argmax(dim=1) == labels).sum().item()
        seen += labels.size(0)
    return {"loss": total_loss / seen, "accuracy": correct / seen}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--data-dir", default="../data")
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--report", default=None, help="also write the metrics to this JSON file")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    logger.info("evaluation arguments: %s", vars(args))

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize(CIFAR_MEAN, CIFAR_STD)])
    test_set = datasets.CIFAR10(args.data_dir, train=False, download=True, transform=transform)
    loader = DataLoader(test_set, batch_size=args.batch_size, num_workers=4)

    model = load_model(args.checkpoint, device)
    metrics = evaluate(model, loader, device)
    logger.info("test loss %.4f, accuracy %.2f%%", metrics["loss"], 100.0 * metrics["accuracy"])
    if args.report:
        with open(args.report, "w") as fh:
            json.dump(metrics, fh, indent=2)


if __name__ == "__main__":
    main()
