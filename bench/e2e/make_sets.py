#!/usr/bin/env python3
"""Makes the photo sets of the whole-run benchmarks (chain.sh; run.sh and
compare.sh read batch/ and single/ too) from photos of two of Debian's
wallpaper packages. The sources are a few MB and travel to an offline machine
(PHOTOS/src/); the sets, hundreds of MB of JPEGs, are made where they are used,
the same way from the same sources. Provenance: bench/e2e/PHOTOS.md.

  make_sets.py --collect DEB... PHOTOS
      copy the chosen photos out of the packages' .deb files (apt-get download
      plasma-workspace-wallpapers mate-backgrounds) into PHOTOS/src/, with each
      package's copyright file and a list of what came from where (SOURCES.tsv)

  make_sets.py [--sets batch,mixed,single] [--count N] [--cjpeg PATH] PHOTOS
      make the sets from PHOTOS/src/ (deterministic: the same sources and
      OpenCV give the same files); each set is checked by reading the JPEG
      headers back, and summed up in PHOTOS/sets.txt:
        batch/   N JPEGs (520) of 1 to 9 MP (mean about 2.8), crops and
                 rescalings of plasma-workspace-wallpapers' photos, quality 92,
                 baseline, 4:2:0 (OpenCV's encoder)
        mixed/   N JPEGs (520) of 1 to 9 MP from mate-backgrounds' photos,
                 encoded by libjpeg-turbo's cjpeg: quality 75 to 95, a third
                 progressive, a tenth gray, colour at 4:2:0 (half), 4:2:2 and
                 4:4:4 (a quarter each)
        single/  photo16mp.jpg (4896x3264) and photo8k.jpg (8192x8192), quality
                 92, and photo16mp.png: make_photos.py's singles, from its source

cjpeg comes from libjpeg-turbo-progs: on PATH, else unpacked from .deps/debs
(where scripts/device_build.sh unpacks it too)."""
import argparse
import atexit
import csv
import functools
import glob
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import Pool

import cv2

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# The photos each set is made from, by package: (set, path in the package, name).
PLASMA_PHOTOS = ["Autumn", "BytheWater", "ColdRipple", "ColorfulCups", "DarkestHour", "EveningGlow",
                 "FallenLeaf", "Grey", "Kite", "OneStandsOut", "Path", "summer_1am"]
MATE_PHOTOS = ["Aqua", "Blinds", "Dune", "FreshFlower", "Garden", "GreenMeadow", "LadyBird", "RainDrops",
               "Storm", "TwoWings", "Wood", "YellowFlower"]
CHOSEN = {
    "plasma-workspace-wallpapers":
        [("batch", f"usr/share/wallpapers/{n}/contents/images/2560x1600.jpg", n) for n in PLASMA_PHOTOS]
        # make_photos.py's single source: the largest image of the package, first by name.
        + [("single", "usr/share/wallpapers/Altai/contents/images/5120x2880.png", "Altai")],
    "mate-backgrounds":
        [("mixed", f"usr/share/backgrounds/mate/nature/{n}.jpg", n) for n in MATE_PHOTOS],
}
MIN_PIXELS, MAX_PIXELS = 1_000_000, 9_000_000


# ---------------------------------------------------------------------------- collect

def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", deb, field], check=True, capture_output=True,
                          text=True).stdout.strip()


def collect(debs, photos):
    src = os.path.join(photos, "src")
    rows = []
    seen = set()
    for deb in debs:
        package, version = deb_field(deb, "Package"), deb_field(deb, "Version")
        if package not in CHOSEN:
            sys.exit(f"{deb}: {package} is not one of the source packages ({', '.join(CHOSEN)})")
        seen.add(package)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
            os.makedirs(src, exist_ok=True)
            shutil.copyfile(os.path.join(tmp, "usr/share/doc", package, "copyright"),
                            os.path.join(src, f"{package}.copyright"))
            for role, path, name in CHOSEN[package]:
                os.makedirs(os.path.join(src, role), exist_ok=True)
                dst = os.path.join(src, role, name + os.path.splitext(path)[1])
                shutil.copyfile(os.path.join(tmp, path), dst)
                licence, author = "see " + f"{package}.copyright", ""
                meta = os.path.join(tmp, path.split("/contents/")[0], "metadata.json")
                if "/contents/" in path and os.path.exists(meta):  # Plasma: per wallpaper
                    plugin = json.load(open(meta, encoding="utf-8"))["KPlugin"]
                    licence = plugin.get("License", licence)
                    author = ", ".join(a.get("Name", "") for a in plugin.get("Authors", []))
                digest = hashlib.sha256(open(dst, "rb").read()).hexdigest()
                rows.append([os.path.relpath(dst, src), package, version, "/" + path, licence, author, digest])
    missing = set(CHOSEN) - seen
    if missing:
        sys.exit(f"missing packages: {', '.join(sorted(missing))} (apt-get download them)")
    with open(os.path.join(src, "SOURCES.tsv"), "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(["file", "package", "version", "path in package", "licence", "author", "sha256"])
        w.writerows(sorted(rows))
    total = sum(os.path.getsize(os.path.join(src, r[0])) for r in rows)
    print(f"{src}: {len(rows)} photos, {total / 2**20:.1f} MiB")


# ---------------------------------------------------------------------------- headers

def jpeg_layout(path):
    """(width, height, progressive, baseline, chroma) from the frame header:
    chroma is 'gray', '420', '422', '444', '440' or 'other'."""
    with open(path, "rb") as f:
        d = f.read()
    i = 2
    while i + 4 <= len(d):
        if d[i] != 0xFF:
            raise ValueError(f"{path}: bad marker at {i}")
        code = d[i + 1]
        if code == 0xFF:
            i += 1
            continue
        length = int.from_bytes(d[i + 2:i + 4], "big")
        if 0xC0 <= code <= 0xCF and code not in (0xC4, 0xC8, 0xCC):
            h, w, n = int.from_bytes(d[i + 5:i + 7], "big"), int.from_bytes(d[i + 7:i + 9], "big"), d[i + 9]
            factors = [(d[i + 11 + 3 * c] >> 4, d[i + 11 + 3 * c] & 15) for c in range(n)]
            chroma = "gray" if n == 1 else "other"
            if n == 3 and factors[1] == factors[2] == (1, 1):
                chroma = {(2, 2): "420", (2, 1): "422", (1, 1): "444", (1, 2): "440"}.get(factors[0], "other")
            return w, h, code in (0xC2, 0xC6, 0xCA, 0xCE), code == 0xC0, chroma
        i += 2 + length
    raise ValueError(f"{path}: no frame header")


def summary(folder):
    """One line per layout and the totals of a folder of JPEGs."""
    layouts, pixels, size, files = {}, 0, 0, sorted(glob.glob(os.path.join(folder, "*.jpg")))
    for f in files:
        w, h, progressive, baseline, chroma = jpeg_layout(f)
        key = ("progressive" if progressive else "baseline" if baseline else "extended") + " " + chroma
        layouts[key] = layouts.get(key, 0) + 1
        pixels += w * h
        size += os.path.getsize(f)
    return files, layouts, pixels, size


# ---------------------------------------------------------------------------- sets

@functools.lru_cache(maxsize=None)
def load(path):
    image = cv2.imread(path, cv2.IMREAD_COLOR)  # the gray photo (Grey) as BGR too
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return image


def plan(rng, count, sources):
    """count (source, aspect, crop share, pixels, x, y) choices: a crop of the
    source at a random place and scale, resized to 1 to 9 MP (1 + 8 u^4 MP,
    mean 2.6), of a common photo shape (or the source's own)."""
    aspects = [1.5, 4 / 3, 16 / 9, 1.0, 2 / 3, 3 / 4, 9 / 16]
    jobs = []
    for i in range(count):
        source = sources[i % len(sources)]
        aspect = rng.choice(aspects) if rng.random() < 0.7 else None
        share = rng.uniform(0.35, 1.0)  # of the largest crop of that shape
        pixels = MIN_PIXELS * 1.01 + (MAX_PIXELS * 0.99 - MIN_PIXELS * 1.01) * rng.random() ** 4
        jobs.append((source, aspect, share, pixels, rng.random(), rng.random()))
    return jobs


def render(source, aspect, share, pixels, fx, fy):
    image = load(source)
    h, w = image.shape[:2]
    aspect = aspect or w / h
    cw, ch = (w, w / aspect) if w / h < aspect else (h * aspect, h)  # the largest crop of that shape
    cw, ch = max(16, int(cw * share ** 0.5)), max(16, int(ch * share ** 0.5))
    x, y = int(fx * (w - cw)), int(fy * (h - ch))
    crop = image[y:y + ch, x:x + cw]
    ow = max(16, round((pixels * aspect) ** 0.5))
    oh = max(16, round(pixels / ow))
    interpolation = cv2.INTER_AREA if ow * oh < cw * ch else cv2.INTER_CUBIC
    return cv2.resize(crop, (ow, oh), interpolation=interpolation)


def make_batch(job):
    path, spec = job
    cv2.setNumThreads(1)
    if not cv2.imwrite(path, render(*spec), [cv2.IMWRITE_JPEG_QUALITY, 92]):
        raise SystemExit(f"cannot write {path}")


def make_mixed(job):
    path, spec, quality, progressive, chroma, cjpeg = job
    cv2.setNumThreads(1)
    image = render(*spec)
    if chroma == "gray":
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ok, pnm = cv2.imencode(".pgm" if chroma == "gray" else ".ppm", image)
    if not ok:
        raise SystemExit(f"cannot encode {path} as PNM")
    cmd = [cjpeg["path"], "-quality", str(quality), "-outfile", path]
    if chroma != "gray":
        cmd += ["-sample", {"420": "2x2", "422": "2x1", "444": "1x1"}[chroma]]
    if progressive:
        cmd.append("-progressive")
    subprocess.run(cmd, input=pnm.tobytes(), check=True, env=cjpeg["env"])


def find_cjpeg(given):
    """cjpeg and the environment to run it in: --cjpeg, else cjpeg on PATH, else
    the copy scripts/device_build.sh unpacked into .deps/prefix, else one
    unpacked here from .deps/debs (libjpeg-turbo-progs and libjpeg62-turbo).
    An unpacked copy needs its libjpeg.so.62 from beside it."""
    candidates = [given] if given else [shutil.which("cjpeg"), os.path.join(REPO, ".deps/prefix/usr/bin/cjpeg")]
    debs = [glob.glob(os.path.join(REPO, ".deps/debs", p + "_*.deb")) for p in ("libjpeg-turbo-progs", "libjpeg62-turbo")]
    if not given and all(debs):
        unpacked = tempfile.mkdtemp(prefix="cjpeg-")
        atexit.register(shutil.rmtree, unpacked, True)
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", deb[0], unpacked], check=True)
        candidates.append(os.path.join(unpacked, "usr/bin/cjpeg"))
    for path in filter(None, candidates):
        if not os.access(path, os.X_OK):
            continue
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))  # .../usr/bin/cjpeg
        libs = [d for d in glob.glob(os.path.join(root, "usr/lib/*")) if glob.glob(os.path.join(d, "libjpeg.so.62*"))]
        if root != "/" and libs:
            env["LD_LIBRARY_PATH"] = os.pathsep.join(libs + [env.get("LD_LIBRARY_PATH", "")]).rstrip(os.pathsep)
        if subprocess.run([path, "-version"], capture_output=True, env=env).returncode == 0:
            return {"path": path, "env": env}
    sys.exit("no working cjpeg (libjpeg-turbo-progs): install it, give --cjpeg PATH, or put "
             "libjpeg-turbo-progs and libjpeg62-turbo .deb files in .deps/debs")


def sources_of(photos, role):
    files = sorted(f for f in glob.glob(os.path.join(photos, "src", role, "*"))
                   if f.lower().endswith((".jpg", ".jpeg", ".png")))
    if not files:
        sys.exit(f"no source photos in {os.path.join(photos, 'src', role)}: run make_sets.py --collect first")
    return files


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)


def run_pool(worker, jobs):
    with Pool() as pool:
        for _ in pool.imap_unordered(worker, jobs, chunksize=4):
            pass


def build_batch(photos, count):
    sources = sources_of(photos, "batch")
    out = os.path.join(photos, "batch")
    fresh(out)
    specs = plan(random.Random(23), count, sources)
    run_pool(make_batch, [(os.path.join(out, f"{i:04d}_{os.path.basename(s[0]).rsplit('.', 1)[0]}.jpg"), s)
                          for i, s in enumerate(specs)])
    return check("batch", out, count, lambda layouts: set(layouts) == {"baseline 420"})


def build_mixed(photos, count, cjpeg):
    sources = sources_of(photos, "mixed")
    out = os.path.join(photos, "mixed")
    fresh(out)
    rng = random.Random(29)
    specs = plan(rng, count, sources)
    gray = round(count / 10)
    colour = count - gray
    chroma = ["gray"] * gray + ["444"] * (colour // 4) + ["422"] * (colour // 4)
    chroma += ["420"] * (count - len(chroma))
    progressive = [True] * round(count / 3) + [False] * (count - round(count / 3))
    rng.shuffle(chroma)
    rng.shuffle(progressive)
    jobs = []
    for i, spec in enumerate(specs):
        name = os.path.basename(spec[0]).rsplit(".", 1)[0]
        jobs.append((os.path.join(out, f"{i:04d}_{name}.jpg"), spec, rng.randint(75, 95), progressive[i],
                     chroma[i], cjpeg))
    run_pool(make_mixed, jobs)
    planned = {}
    for c, p in zip(chroma, progressive):
        key = ("progressive " if p else "baseline ") + c
        planned[key] = planned.get(key, 0) + 1
    return check("mixed", out, count, lambda layouts: layouts == planned)


def describe(folder):
    """A line on a set: count, sizes, bytes and JPEG layouts (read from the files)."""
    files, layouts, pixels, size = summary(folder)
    if not files:
        return f"{os.path.basename(folder)}/: no JPEGs"
    mp = [w * h / 1e6 for w, h in (jpeg_layout(f)[:2] for f in files)]
    return (f"{os.path.basename(folder)}/: {len(files)} JPEGs, {min(mp):.2f} to {max(mp):.2f} MP "
            f"(mean {pixels / len(files) / 1e6:.2f}), {size / 2**20:.0f} MiB; "
            + ", ".join(f"{k}: {v}" for k, v in sorted(layouts.items())))


def check(name, folder, count, layouts_ok):
    files, layouts, pixels, _ = summary(folder)
    mp = [w * h / 1e6 for w, h in (jpeg_layout(f)[:2] for f in files)]
    line = describe(folder)
    if len(files) != count or not layouts_ok(layouts) or min(mp) < MIN_PIXELS / 1e6 or max(mp) > MAX_PIXELS / 1e6:
        sys.exit(f"{name}: the set is not as planned: {line}")
    return line


def build_single(photos):
    source = sources_of(photos, "single")[0]
    out = os.path.join(photos, "single")
    os.makedirs(out, exist_ok=True)
    image = load(source)
    q = [cv2.IMWRITE_JPEG_QUALITY, 92]
    mp16 = cv2.resize(image, (4896, 3264), interpolation=cv2.INTER_AREA)  # 16.0 MP, 3:2
    cv2.imwrite(os.path.join(out, "photo16mp.jpg"), mp16, q)
    cv2.imwrite(os.path.join(out, "photo16mp.png"), mp16)
    big = cv2.resize(image, (8192, 8192), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(os.path.join(out, "photo8k.jpg"), big, q)
    return describe_single(out)


def describe_single(folder):
    names = [n for n in ("photo16mp.jpg", "photo8k.jpg", "photo16mp.png") if os.path.exists(os.path.join(folder, n))]
    return "single/: " + ", ".join(f"{n} {os.path.getsize(os.path.join(folder, n)) / 2**20:.1f} MiB" for n in names)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 usage="make_sets.py [--sets SETS] [--count N] [--cjpeg PATH] PHOTOS\n"
                                       "       make_sets.py --collect DEB... PHOTOS")
    ap.add_argument("--collect", action="store_true", help="copy the source photos out of the .deb files given")
    ap.add_argument("--sets", default="batch,mixed,single", help="which sets to make (default: all three)")
    ap.add_argument("--count", type=int, default=520, help="photos in batch/ and in mixed/ (default: 520)")
    ap.add_argument("--cjpeg", help="libjpeg-turbo's cjpeg for mixed/ (default: on PATH, else .deps/prefix)")
    ap.add_argument("paths", nargs="+", metavar="PATH", help="PHOTOS, after the .deb files with --collect")
    args = ap.parse_args()
    args.photos = args.paths[-1]
    if args.collect:
        if len(args.paths) < 2:
            ap.error("--collect takes the .deb files, then PHOTOS")
        collect(args.paths[:-1], args.photos)
        return
    if len(args.paths) != 1:
        ap.error("give one PHOTOS folder (.deb files only with --collect)")
    sets = args.sets.split(",")
    unknown = set(sets) - {"batch", "mixed", "single"}
    if unknown or args.count < 1:
        ap.error("--sets takes batch, mixed and single; --count at least 1")
    lines = []
    if "batch" in sets:
        lines.append(build_batch(args.photos, args.count))
    if "mixed" in sets:
        lines.append(build_mixed(args.photos, args.count, find_cjpeg(args.cjpeg)))
    if "single" in sets:
        lines.append(build_single(args.photos))
    print("\n".join(lines))
    # What the folder holds now, whichever run made each set.
    described = [describe(os.path.join(args.photos, s)) for s in ("batch", "mixed")
                 if os.path.isdir(os.path.join(args.photos, s))]
    if os.path.isdir(os.path.join(args.photos, "single")):
        described.append(describe_single(os.path.join(args.photos, "single")))
    with open(os.path.join(args.photos, "sets.txt"), "w") as f:
        f.write("\n".join(described) + "\n")


if __name__ == "__main__":
    main()
