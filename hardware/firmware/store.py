# Small JSON file store with atomic replace, for totals, calibration and state.
# Writes go to <name>.tmp and are renamed over <name>, so a power cut leaves
# either the old or the new file, never half of one.
import json
import os


class Store:
    def __init__(self, root):
        self.root = root
        self.errors = 0

    def _path(self, name):
        return self.root + "/" + name

    def load(self, name, default):
        # A missing or corrupt file gives the default (and counts an error if corrupt).
        for path in (self._path(name), self._path(name) + ".tmp"):
            try:
                with open(path) as f:
                    return json.load(f)
            except OSError:
                continue
            except ValueError:
                self.errors += 1
                continue
        return default

    def save(self, name, obj):
        path = self._path(name)
        tmp = path + ".tmp"
        try:
            with open(tmp, "w") as f:
                f.write(json.dumps(obj))
            try:
                os.rename(tmp, path)
            except OSError:
                # Some filesystems (FAT) refuse to rename over a file.
                os.remove(path)
                os.rename(tmp, path)
            return True
        except OSError:
            self.errors += 1
            return False
