"""Custom TensorFlow training loop for a small Keras classifier.

    python train_tf.py --config configs/mnist.yaml --output weights/mnist.weights.h5
"""
import argparse
import logging

import tensorflow as tf
import yaml

logger = logging.getLogger(__name__)


def build_model(hidden_units, num_classes):
    return tf.keras.Sequential(
        [
            tf.keras.layers.Flatten(input_shape=(28, 28)),
            tf.keras.layers.Dense(hidden_units, activation="relu"),
            tf.keras.layers.Dropout(0.2),
            tf.keras.layers.Dense(num_classes),
        ]
    )


def make_dataset(batch_size):
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    x_train = x_train.astype("float32") / 255.0
    return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(10_000).batch(batch_size)


def train(model, dataset, epochs, learning_rate):
    optimizer = tf.keras.optimizers.Adam(learning_rate)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for epoch in range(epochs):
        for x, y in dataset:
            with tf.GradientTape() as tape:
                logits = model(x, training=True)
                loss = loss_fn(y, logits)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/mnist.yaml")
    parser.add_argument("--output", default="weights/mnist.weights.h5")
    parser.add_argument("--resume", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    logger.info("arguments: %s", vars(args))

    with open(args.config) as fh:
        cfg = yaml.safe_load(fh)

    model = build_model(cfg["hidden_units"], cfg["num_classes"])
    if args.resume:
        model.load_weights(args.resume)

    dataset = make_dataset(cfg["batch_size"])
    train(model, dataset, cfg["epochs"], cfg["learning_rate"])

    model.save_weights(args.output)
    logger.info("saved weights to %s", args.output)


if __name__ == "__main__":
    main()
