"""Benchmark the study searches on the bundled ES09 lexicon (636,598 words).

Run: ``.venv/bin/python bench/bench_wordtools.py [--runs 5]``. Each line is the median and the
worst of ``runs`` timings of one search (the lexicon is loaded once, before timing), and how
many words it found.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

from atril import wordtools as W
from atril.lexicon import Lexicon


def cases(lex: Lexicon) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("anagram AEIRST??", lambda: W.anagrams(lex, "AEIRST??")),
        ("anagram ESTRAÑO??", lambda: W.anagrams(lex, "ESTRAÑO??")),
        ("anagram CHAVAL?", lambda: W.anagrams(lex, "CHAVAL?")),
        ("anagram ACEINORST? (10 tiles)", lambda: W.anagrams(lex, "ACEINORST?")),
        ("build AEIRST??", lambda: W.buildable(lex, "AEIRST??")),
        ("build CHAVAL?", lambda: W.buildable(lex, "CHAVAL?")),
        ("pattern ?ACH*", lambda: W.pattern_words(lex, "?ACH*")),
        ("pattern *[AEIOU]RR?", lambda: W.pattern_words(lex, "*[AEIOU]RR?")),
        ("pattern *CION", lambda: W.pattern_words(lex, "*CION")),
        ("pattern C*N", lambda: W.pattern_words(lex, "C*N")),
        ("pattern *LL*Ñ*", lambda: W.pattern_words(lex, "*LL*Ñ*")),
        ("pattern *A*E*I*O*U*", lambda: W.pattern_words(lex, "*A*E*I*O*U*")),
        ("pattern ???????? limit 201", lambda: W.pattern_words(lex, "????????", limit=201)),
        ("pattern [^AEIOU]*[AEIOU] (all)", lambda: W.pattern_words(lex, "[^AEIOU]*[AEIOU]")),
        ("hooks CASA ARRO OCHO", lambda: [W.hooks(lex, w) for w in ("CASA", "ARRO", "OCHO")]),
        ("list 2-3 tiles by probability", lambda: W.by_probability(
            W.word_list(lex, min_length=2, max_length=3))),
        ("list containing Z,X", lambda: W.word_list(lex, contains="Z,X")),
        ("list containing Ñ, 5 tiles", lambda: W.word_list(lex, min_length=5, max_length=5,
                                                           contains="Ñ")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    t = time.perf_counter()
    lex = Lexicon.load("ES09")
    print(f"ES09 load: {time.perf_counter() - t:.3f} s ({lex.word_count} words)")
    print(f"{'search':<34} {'median':>10} {'worst':>10} {'found':>8}")
    for name, run in cases(lex):
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            result = run()
            times.append(time.perf_counter() - t)
        found = len(result) if isinstance(result, list) else 0
        print(f"{name:<34} {statistics.median(times) * 1000:>8.1f} ms "
              f"{max(times) * 1000:>7.1f} ms {found:>8}")


if __name__ == "__main__":
    main()
