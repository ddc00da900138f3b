"""Import a package's utils/prepare.py and call prepare(raw, public, private).

  run_prepare.py <prepare.py> <raw dir> <public dir> <private dir>
Prints `OPENMLE_RESULT <json>`: {"ok": true} or {"ok": false, "message", "traceback"}.
"""
import importlib.util
import json
import sys
import traceback
from pathlib import Path


def main(argv):
    path, raw, public, private = argv[1:5]
    try:
        spec = importlib.util.spec_from_file_location("openmle_task_prepare", path)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(Path(path).parent))
        spec.loader.exec_module(module)
        fn = getattr(module, "prepare", None)
        if not callable(fn):
            return {"ok": False, "message": f"{path} defines no prepare(raw, public, private) function. Fix: add one."}
        fn(Path(raw), Path(public), Path(private))
        return {"ok": True}
    except Exception as e:
        return {"ok": False, "message": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}


if __name__ == "__main__":
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(main(sys.argv)) + "\n")
