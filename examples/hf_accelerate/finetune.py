"""Fine-tune a sequence classifier on GLUE/MRPC with Hugging Face Accelerate.

    accelerate launch finetune.py --model bert-base-cased --epochs 3
"""
import argparse
import logging
import os

import evaluate
import torch
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from datasets import load_dataset
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

logger = get_logger(__name__)


def build_dataloaders(tokenizer, batch_size):
    raw = load_dataset("glue", "mrpc")

    def tokenize(examples):
        return tokenizer(examples["sentence1"], examples["sentence2"], truncation=True, max_length=128)

    tokenized = raw.map(tokenize, batched=True, remove_columns=["idx", "sentence1", "sentence2"])
    tokenized = tokenized.rename_column("label", "labels")

    def collate(examples):
        return tokenizer.pad(examples, padding="longest", return_tensors="pt")

    train = DataLoader(tokenized["train"], shuffle=True, collate_fn=collate, batch_size=batch_size)
    val = DataLoader(tokenized["validation"], shuffle=False, collate_fn=collate, batch_size=2 * batch_size)
    return train, val


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="bert-base-cased")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--output-dir", default="outputs")
    parser.add_argument("--mixed-precision", choices=["no", "fp16", "bf16"], default="no")
    args = parser.parse_args()
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.INFO)

    accelerator = Accelerator(mixed_precision=args.mixed_precision)
    set_seed(args.seed)

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=2)
    logger.info("loaded pretrained weights from %s", model.name_or_path)

    train_dataloader, eval_dataloader = build_dataloaders(tokenizer, args.batch_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    lr_scheduler = get_linear_schedule_with_warmup(
        optimizer, num_warmup_steps=100, num_training_steps=len(train_dataloader) * args.epochs
    )
    model, optimizer, train_dataloader, eval_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, eval_dataloader, lr_scheduler
    )
    metric = evaluate.load("glue", "mrpc")

    best_f1 = 0.0
    for epoch in range(args.epochs):
        model.train()
        for batch in train_dataloader:
            outputs = model(**batch)
            loss = outputs.loss
            accelerator.backward(loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()

        model.eval()
        for batch in eval_dataloader:
            with torch.no_grad():
                outputs = model(**batch)
            predictions = outputs.logits.argmax(dim=-1)
            predictions, references = accelerator.gather_for_metrics((predictions, batch["labels"]))
            metric.add_batch(predictions=predictions, references=references)
        eval_metric = metric.compute()
        if eval_metric["f1"] > best_f1:
            best_f1 = eval_metric["f1"]
            accelerator.save_state(os.path.join(args.output_dir, "best"))

        peak_mb = torch.cuda.max_memory_allocated() / 2**20 if torch.cuda.is_available() else 0.0
        accelerator.print(f"epoch {epoch}: lr {lr_scheduler.get_last_lr()[0]:.2e}, peak memory {peak_mb:.0f} MiB")

    accelerator.wait_for_everyone()
    unwrapped = accelerator.unwrap_model(model)
    unwrapped.save_pretrained(args.output_dir, is_main_process=accelerator.is_main_process, save_function=accelerator.save)
    logger.info("saved fine-tuned model to %s", args.output_dir)


if __name__ == "__main__":
    main()
