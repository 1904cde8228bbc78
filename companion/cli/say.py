"""``binaryon say "TEXT"``: speak one line with the [voice] settings (to the sound card, or
``--to DIR`` as a numbered WAV and a line of DIR/said.txt)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.voice.sinks import AlsaSink, FolderSink, Sink
from companion.voice.speech import Speaker, VoiceSettings


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", help="what to say")
    p.add_argument("--to", metavar="DIR", help="write DIR/NNNN.wav and DIR/said.txt instead")
    p.add_argument("--voice", help="an espeak-ng voice (default: [voice] voice)")
    p.add_argument("--rate", type=int, help="words a minute (default: [voice] rate)")
    p.add_argument("--config", metavar="FILE", help="TOML config ([voice])")


def run(args: argparse.Namespace) -> int:
    from companion.service.app import load_config

    try:
        config = load_config(args.config)
    except Exception as e:  # a bad config: one line
        print(f"binaryon: {e}", file=sys.stderr)
        return 2
    v = config.voice
    settings = VoiceSettings(args.voice or v.voice, args.rate or v.rate, v.volume)
    if not 80 <= settings.rate <= 450:
        print(f"binaryon: --rate {settings.rate} must be 80..450", file=sys.stderr)
        return 2
    sink: Sink
    if args.to:
        try:
            sink = FolderSink(Path(args.to))
        except OSError as e:
            print(f"binaryon: {args.to}: {e.strerror or e}", file=sys.stderr)
            return 2
    else:
        if why := AlsaSink.missing():
            print(f"binaryon: {why}", file=sys.stderr)
            return 1
        sink = AlsaSink(v.device)
    try:
        Speaker(sink, settings).say(args.text)
    except (OSError, ValueError) as e:
        print(f"binaryon: {e}", file=sys.stderr)
        return 1
    return 0
