"""Train a small MLP on scikit-learn's bundled digits with a gradient tangentlike generated.

    pip install -e ".[demo]"
    python samples/mlp_digits.py [--epochs N]

Steps: build the gradient of `mlp.loss` from its source and print it; check it
against central finite differences and against the hand-written gradient; train
with minibatch SGD using it and report the loss and the test accuracy. The
digits data ship inside scikit-learn, so nothing is downloaded.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys
import time

import numpy as np

HERE = str(pathlib.Path(__file__).resolve().parent)
if HERE not in sys.path:  # imported from elsewhere (a test): find the sibling mlp.py
    sys.path.insert(0, HERE)

import mlp  # noqa: E402  (the sample next to this file)

import tangentlike as tl  # noqa: E402

WRT = ("W1", "W2")


def load_data(seed: int = 0, test_fraction: float = 0.2):
    """Digits scaled to [0, 1], split into train and test deterministically (stratified)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    X = digits.data / 16.0  # pixel intensities are 0..16
    y = digits.target
    return train_test_split(X, y, test_size=test_fraction, random_state=seed, stratify=y)


def one_hot(y: np.ndarray, n_classes: int) -> np.ndarray:
    return np.eye(n_classes)[y]


def gradient_function_source(df) -> str:
    """The entry function of the module tangentlike generated (the last `def` in it)."""
    text = df.source
    functions = [node for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)]
    if not functions:
        return text
    return ast.get_source_segment(text, functions[-1], padded=True)


def finite_difference_check(df, args, rng, n_coords: int = 6, eps: float = 1e-5) -> float:
    """Max relative error of the generated gradient against central differences.

    Checks `n_coords` random coordinates of each of W1 and W2, and the directional
    derivative along one random direction in (W1, W2) together.
    """
    W1, W2, *rest = args
    gW1, gW2 = df(*args)
    directions = []
    for k, param in enumerate((W1, W2)):
        for flat in rng.choice(param.size, size=n_coords, replace=False):
            unit = [np.zeros_like(W1), np.zeros_like(W2)]
            unit[k].flat[flat] = 1.0
            directions.append(unit)
    directions.append([rng.standard_normal(W1.shape), rng.standard_normal(W2.shape)])

    errors = []
    for V1, V2 in directions:
        plus = mlp.loss(W1 + eps * V1, W2 + eps * V2, *rest)
        minus = mlp.loss(W1 - eps * V1, W2 - eps * V2, *rest)
        fd = (plus - minus) / (2 * eps)
        predicted = np.vdot(gW1, V1) + np.vdot(gW2, V2)
        errors.append(abs(fd - predicted) / max(abs(fd), abs(predicted), 1e-6))
    return float(max(errors))


def check_point(rng, X, Y, n_hidden: int = 16, margin: float = 1e-3):
    """Small random weights for (X, Y) whose pre-activations all keep `margin` from the kink.

    Central differences straddling the ReLU kink measure neither one-sided slope;
    the steps `finite_difference_check` takes move a pre-activation by far less.
    """
    while True:
        W1, W2 = mlp.init_params(rng, X.shape[1], n_hidden, Y.shape[1])
        if np.min(np.abs(X @ W1)) > margin:
            return W1, W2, X, Y, 0.01


def accuracy(W1, W2, X, y) -> float:
    logits = np.maximum(X @ W1, 0.0) @ W2
    return float(np.mean(np.argmax(logits, axis=1) == y))


def main(
    epochs: int = 10,
    batch_size: int = 32,
    n_hidden: int = 128,
    learning_rate: float = 0.2,
    weight_decay: float = 1e-4,
    seed: int = 0,
    show_source: bool = True,
) -> dict:
    """Run the demo; returns the final training loss and test accuracy (and the checks)."""
    X_train, X_test, y_train, y_test = load_data(seed)
    n_classes = 10
    Y_train = one_hot(y_train, n_classes)
    rng = np.random.default_rng(seed)

    start = time.perf_counter()
    dloss = tl.grad(mlp.loss, wrt=WRT)
    build_ms = (time.perf_counter() - start) * 1e3
    origin = getattr(dloss, "built_from", "transform")
    print(f"tl.grad(mlp.loss, wrt={WRT}) built the gradient in {build_ms:.1f} ms ({origin})")
    if show_source:
        print("\n--- generated gradient " + "-" * 56)
        print(gradient_function_source(dloss))
        print("-" * 79 + "\n")

    small = check_point(rng, X_train[:20], Y_train[:20])
    fd_error = finite_difference_check(dloss, small, rng)
    print(f"finite differences: max relative error {fd_error:.2e}")
    assert fd_error < 1e-4, f"generated gradient disagrees with finite differences ({fd_error:.2e})"

    W1, W2 = mlp.init_params(rng, X_train.shape[1], n_hidden, n_classes)
    full = (W1, W2, X_train, Y_train, weight_decay)
    hand_error = max(
        np.max(np.abs(g - h)) / np.max(np.abs(h))
        for g, h in zip(dloss(*full), mlp.loss_grad_by_hand(*full), strict=True)
    )
    print(f"hand-written gradient: max relative difference {hand_error:.2e}")
    assert hand_error < 1e-10, f"generated and hand-written gradients differ ({hand_error:.2e})"

    print(f"\nSGD: {epochs} epochs, batch {batch_size}, hidden {n_hidden}, lr {learning_rate}")
    print(f"epoch  train loss  test accuracy    ({len(y_train)} train / {len(y_test)} test)")
    n = len(y_train)
    train_loss = mlp.loss(W1, W2, X_train, Y_train, weight_decay)
    test_accuracy = accuracy(W1, W2, X_test, y_test)
    print(f"{0:5d}  {train_loss:10.4f}  {test_accuracy:13.1%}")
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = rng.permutation(n)
        for lo in range(0, n, batch_size):
            batch = order[lo : lo + batch_size]
            gW1, gW2 = dloss(W1, W2, X_train[batch], Y_train[batch], weight_decay)
            W1 = W1 - learning_rate * gW1
            W2 = W2 - learning_rate * gW2
        train_loss = mlp.loss(W1, W2, X_train, Y_train, weight_decay)
        test_accuracy = accuracy(W1, W2, X_test, y_test)
        print(f"{epoch:5d}  {train_loss:10.4f}  {test_accuracy:13.1%}")
    print(f"trained in {time.perf_counter() - start:.2f} s")
    return {
        "train_loss": float(train_loss),
        "test_accuracy": test_accuracy,
        "fd_error": fd_error,
        "hand_error": float(hand_error),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-source", action="store_true", help="don't print the gradient")
    cli = parser.parse_args()
    result = main(
        epochs=cli.epochs,
        batch_size=cli.batch_size,
        n_hidden=cli.hidden,
        learning_rate=cli.lr,
        seed=cli.seed,
        show_source=not cli.no_source,
    )
    if cli.epochs >= 5 and result["test_accuracy"] < 0.9:
        sys.exit(f"test accuracy {result['test_accuracy']:.1%} is below 90%")
