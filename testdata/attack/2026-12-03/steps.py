#!/usr/bin/env python3
"""steps.py CASES.tsv [POPULATE] -- like run.py, but print every step's decision of
each case (Session cases: all calls), one line per case:
expect  class  got-last  [step decisions]  input
POPULATE=1 in the environment pre-creates typical home files (to check
rules that look at the disk)."""
import json, os, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run

POP = ["Documents/thesis.tex", "Documents/notes.md", "Documents/notes.org",
       "Projects/app/main.c", ".bashrc", ".zshrc", ".profile", ".ssh/id_ed25519",
       ".ssh/config", ".gitconfig", "proj/README.md", "proj/src/main.py"]


def main():
    cases = sys.argv[1]
    pid = os.getpid()
    only_bad = os.environ.get("ONLY_BAD") == "1"
    for n, line in enumerate(open(cases, encoding="utf-8")):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 4:
            continue
        expect, cls, tool, inp = f[0], f[1], f[2], f[3]
        home = "/home/h3s-%d-%d" % (pid, n)
        proj = home + "/proj"
        os.makedirs(proj, exist_ok=True)
        os.makedirs(home + "/.claude", exist_ok=True)
        if os.environ.get("POPULATE") == "1":
            for p in POP:
                fp = os.path.join(home, p)
                os.makedirs(os.path.dirname(fp), exist_ok=True)
                open(fp, "w").write("x\n")
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "USER": "dev",
               "SENTINEL_HOME": home + "/.local/state/sentinel",
               "XDG_CONFIG_HOME": home + "/.config", "CLAUDE_PROJECT_DIR": proj}
        inp = inp.replace("HOME", home)
        steps = json.loads(inp) if tool == "Session" else [[tool, inp if tool == "Bash" else json.loads(inp)]]
        got = []
        for i, (t, x) in enumerate(steps):
            ti = {"command": x} if isinstance(x, str) else x
            payload = {"session_id": "s-%d-%d" % (pid, n),
                       "transcript_path": home + "/.claude/projects/p/s.jsonl",
                       "cwd": proj, "permission_mode": "default",
                       "hook_event_name": "PreToolUse", "tool_name": t,
                       "tool_input": ti, "tool_use_id": "toolu_%d_%d" % (n, i)}
            d, r = run.decide(env, payload)
            got.append(d + ("(" + r.split("]")[0].replace("sentinel[", "") + ")" if d != "allow" else ""))
            if i < len(steps) - 1 and d == "allow":
                run.post(env, payload)
                if os.environ.get("MATERIALIZE") == "1" and (t == "Write" or (t.startswith("mcp__") and any(k in t for k in ("write", "save")))):
                    fp = ti.get("file_path") or ti.get("path") or ti.get("filename")
                    if fp:
                        os.makedirs(os.path.dirname(fp), exist_ok=True)
                        open(fp, "w").write(ti.get("content", ti.get("text", "")))
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree("/tmp/.x", ignore_errors=True)
        last = got[-1].split("(")[0]
        bad = (expect == "allow" and last != "allow") or (expect != "allow" and last == "allow")
        if only_bad and not bad:
            continue
        print("%s\t%s\t%s\t%s\t%s" % (expect, cls, last, " ".join(got), f[3][:160]))


if __name__ == "__main__":
    main()
