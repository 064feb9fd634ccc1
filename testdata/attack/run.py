#!/usr/bin/env python3
"""run.py CASES.tsv OUT.tsv — judge each case through the real sentinel-hook.

BIN: directory holding sentinel-hook (default ./bin, what make build writes).
Each case gets a fresh HOME (/home/h3-PID-N, project HOME/proj, cwd the
project), SENTINEL_HOME under it, attended (permission_mode default) unless
the case's mode column says unattended.

Case line (tab-separated):
  expect <TAB> class <TAB> tool <TAB> input [<TAB> note]
expect: allow | ask | deny | stop (stop = ask or deny is fine).
tool: Bash (input is the command), any other tool (input is the tool_input
JSON), or Session (input is a JSON array of [tool, input] pairs; the earlier
calls are sent first, each followed by a PostToolUse "ran" when it was
allowed; the last call is the one scored).
The literal text HOME in an input is replaced by the case's home directory.

OUT: expect, class, tool, got, reason(first 200 chars), input.
Prints a summary per expectation.
"""
import json, os, shutil, subprocess, sys, collections

BIN = os.environ.get("BIN", "bin")
HOOK = os.path.join(BIN, "sentinel-hook")


def decide(env, payload):
    p = subprocess.run([HOOK], input=json.dumps(payload).encode(), env=env,
                       capture_output=True, timeout=30)
    out = p.stdout.decode(errors="replace").strip()
    if p.returncode != 0:
        return "CRASH(exit %d)" % p.returncode, p.stderr.decode(errors="replace")[:200]
    if not out:
        return "allow", ""
    try:
        j = json.loads(out)
    except Exception:
        return "BADJSON", out[:200]
    h = j.get("hookSpecificOutput", {})
    return h.get("permissionDecision", "allow"), h.get("permissionDecisionReason", "")


def post(env, payload):
    q = dict(payload)
    q["hook_event_name"] = "PostToolUse"
    q["tool_response"] = {}
    subprocess.run([HOOK, "post"], input=json.dumps(q).encode(), env=env,
                   capture_output=True, timeout=30)


def main():
    cases, outp = sys.argv[1], sys.argv[2]
    pid = os.getpid()
    rows = []
    summary = collections.Counter()
    for n, line in enumerate(open(cases, encoding="utf-8")):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 4:
            print("skipping malformed line %d" % (n + 1), file=sys.stderr)
            continue
        expect, cls, tool, inp = f[0], f[1], f[2], f[3]
        mode = "unattended" if any(x.strip() == "unattended" for x in f[4:]) else "default"
        home = "/home/h3-%d-%d" % (pid, n)
        proj = home + "/proj"
        os.makedirs(proj, exist_ok=True)
        os.makedirs(home + "/.claude", exist_ok=True)
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "USER": "dev",
            "SENTINEL_HOME": home + "/.local/state/sentinel",
            "XDG_CONFIG_HOME": home + "/.config",
            "CLAUDE_PROJECT_DIR": proj,
        }
        if mode == "unattended":
            env["SENTINEL_UNATTENDED"] = "1"
        inp = inp.replace("HOME", home)
        try:
            if tool == "Session":
                steps = json.loads(inp)
            else:
                steps = [[tool, inp if tool == "Bash" else json.loads(inp)]]
            got, reason = "?", ""
            for i, (t, x) in enumerate(steps):
                ti = {"command": x} if isinstance(x, str) else x
                payload = {
                    "session_id": "s-%d-%d" % (pid, n),
                    "transcript_path": home + "/.claude/projects/p/s.jsonl",
                    "cwd": proj,
                    "permission_mode": "dontAsk" if mode == "unattended" else "default",
                    "hook_event_name": "PreToolUse",
                    "tool_name": t,
                    "tool_input": ti,
                    "tool_use_id": "toolu_%d_%d" % (n, i),
                }
                got, reason = decide(env, payload)
                if i < len(steps) - 1 and got == "allow":
                    post(env, payload)
        except Exception as e:
            got, reason = "HARNESS-ERROR", str(e)[:200]
        finally:
            shutil.rmtree(home, ignore_errors=True)
        ok = (got == expect) or (expect == "stop" and got in ("ask", "deny"))
        summary[(expect, got)] += 1
        rows.append([expect, cls, tool, got, reason.replace("\t", " ").replace("\n", " ")[:200],
                     f[3]])
    with open(outp, "w", encoding="utf-8") as o:
        for r in rows:
            o.write("\t".join(r) + "\n")
    for (e, g), c in sorted(summary.items()):
        print("expect %-5s got %-6s %5d" % (e, g, c))


if __name__ == "__main__":
    main()
