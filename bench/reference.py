"""Random valid and invalid sessions of every game through `scorekeeper score --json` / `check`, against
an independent reading of SPEC.md (tests/reference_model.py): `python bench/reference.py [N] [SEED] [--invalid]`."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomli_w

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.reference_model import GENS, compare, mutations


def run(game: str, count: int, seed: int, cli: str, batch: int = 400) -> tuple[int, list[tuple[Path, list[str]]]]:
    """Generate count sessions of a game, score them through the CLI, return the mismatches."""
    rng = random.Random(seed)
    bad: list[tuple[Path, list[str]]] = []
    tmp = Path(tempfile.mkdtemp(prefix=f"ref-{game}-"))
    done = 0
    while done < count:
        docs, files = [], []
        for i in range(min(batch, count - done)):
            doc = GENS[game](rng)
            f = tmp / f"{game}-{done + i}.toml"
            f.write_bytes(tomli_w.dumps(doc).encode())
            docs.append(doc)
            files.append(f)
        proc = subprocess.run([cli, "score", "--json", *map(str, files)], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            for doc, f in zip(docs, files, strict=True):
                one = subprocess.run([cli, "score", "--json", str(f)], capture_output=True, text=True, check=False)
                if one.returncode != 0:
                    bad.append((f, [f"exit {one.returncode}: {one.stderr.strip()[:400]}"]))
                else:
                    d = compare(doc, json.loads(one.stdout))
                    if d:
                        bad.append((f, d))
        else:
            out = json.loads(proc.stdout)
            for doc, f, got in zip(docs, files, out, strict=True):
                d = compare(doc, got)
                if d:
                    bad.append((f, d))
        done += len(docs)
    return done, bad


def run_invalid(game: str, count: int, seed: int, cli: str) -> tuple[int, list[str]]:
    """Invalid variants of count sessions: each must exit 2 on score and check, check naming the place."""
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix=f"refbad-{game}-"))
    problems: list[str] = []
    n = 0
    for i in range(count):
        doc = GENS[game](rng)
        for j, (what, d, place) in enumerate(mutations(game, doc, rng)):
            f = tmp / f"{i}-{j}.toml"
            f.write_bytes(tomli_w.dumps(d).encode())
            n += 1
            chk = subprocess.run([cli, "check", str(f)], capture_output=True, text=True, check=False)
            sc = subprocess.run([cli, "score", "--json", str(f)], capture_output=True, text=True, check=False)
            text = chk.stdout + chk.stderr
            if chk.returncode != 2 or sc.returncode != 2 or place not in text or "Traceback" in text + sc.stderr:
                problems.append(
                    f"{what} ({f}): check {chk.returncode} score {sc.returncode}, place {place!r}: {text.strip()[:300]}"
                )
    return n, problems


def main() -> None:
    """Compare N random sessions per game (and, with --invalid, N sessions' invalid variants)."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 1000
    seed = int(args[1]) if len(args) > 1 else 1
    cli = str(Path(sys.executable).parent / "scorekeeper")
    for game in GENS:
        start = time.perf_counter()
        n, bad = run(game, count, seed, cli)
        print(f"{game}: {n} sessions, {len(bad)} mismatches ({time.perf_counter() - start:.1f} s)")
        for f, d in bad[:8]:
            print(f"  {f}: {d[:4]}")
        if "--invalid" in sys.argv:
            n, problems = run_invalid(game, max(1, count // 100), seed, cli)
            print(f"{game}: {n} invalid files, {len(problems)} not refused with exit 2 and the place")
            for line in problems[:8]:
                print(f"  {line}")


if __name__ == "__main__":
    main()
