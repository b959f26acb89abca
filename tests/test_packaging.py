"""Packaging: the release workflow, the Linux installers and their checks, the scripts.

The Linux scripts run for real here, against a fake bundle (a small Python program that
answers ``--version``, writes a PNG for ``export`` and passes the self-test), so no
PyInstaller build is needed: install.sh/uninstall.sh into a temporary HOME, the
.deb's control data and layout (dpkg-deb), the per-user half of check_packages.sh, and
packaging/smoke.sh, which the release workflow runs on every OS.
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from core.version import __version__

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
PACKAGING = ROOT / "packaging"
ICON = ROOT / "resources" / "icons" / "pe-studio.png"
RUNNERS = {"ubuntu-22.04", "windows-latest", "macos-14", "macos-15-intel"}
XCB_DEPENDS = (
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-keysyms1",
    "libxkbcommon-x11-0",
    "libegl1",
    "libgl1",
    "libfontconfig1",
)
HAVE_DPKG_DEB = shutil.which("dpkg-deb") is not None and shutil.which("dpkg") is not None

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the packaging scripts are bash")


# ------------------------------------------------------------------ helpers
FAKE_APP = """#!{python}
import os, struct, sys, zlib

MODE = {mode!r}
args = sys.argv[1:]
if args == ["--version"]:
    print("pe-studio {version}")
elif args[:1] == ["export"] and MODE != "no-png":
    out = args[args.index("-o") + 1]
    w, h = int(args[args.index("--width") + 1]), int(args[args.index("--height") + 1])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\\0" + bytes(3 * w) for _ in range(h))
    png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    with open(out, "wb") as f:
        f.write(png)
elif not args and os.environ.get("PE_STUDIO_SELFTEST") == "1" and MODE != "no-selftest":
    print("first-frame-ms: 5")
else:
    sys.exit(3)
"""


def make_bundle(tmp_path: Path, mode: str = "ok") -> Path:
    """A stand-in for dist/pe-studio: the fake app plus an _internal/ folder."""
    bundle = tmp_path / "bundle" / "pe-studio"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "_internal" / "base_library.zip").write_bytes(b"not really")
    exe = bundle / "pe-studio"
    exe.write_text(FAKE_APP.format(python=sys.executable, mode=mode, version=__version__))
    exe.chmod(0o755)
    return bundle


def run(cmd: list[str], env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, **kw)


def packaging_env(bundle: Path, out: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "BUNDLE_DIR": str(bundle), "OUT_DIR": str(out), **extra}


def user_env(home: Path, **extra: str) -> dict[str, str]:
    """A bare login environment, as after `env -i`."""
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **extra}


def tree(home: Path) -> dict[str, str]:
    """Every file/link under home -> its content hash or link target."""
    out = {}
    for path in sorted(home.rglob("*")):
        rel = str(path.relative_to(home))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    """build_tarball.sh run on the fake bundle, unpacked; returns its top folder."""
    tmp = tmp_path_factory.mktemp("tarball")
    bundle = make_bundle(tmp)
    proc = run(
        ["bash", str(PACKAGING / "linux" / "build_tarball.sh")],
        env=packaging_env(bundle, tmp / "out"),
    )
    assert proc.returncode == 0, proc.stderr
    name = f"pe-studio-{__version__}-linux-{platform.machine()}"
    tarball = tmp / "out" / f"{name}.tar.gz"
    assert proc.stdout.splitlines()[-1] == str(tarball)
    with tarfile.open(tarball) as tar:
        assert {m.name.split("/")[0] for m in tar.getmembers()} == {name}
        assert all(m.uid == 0 and m.gid == 0 for m in tar.getmembers())
        tar.extractall(tmp / "unpacked", filter="tar")
    return tmp / "unpacked" / name


# ------------------------------------------------------------------ workflow
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def test_workflow_builds_smoke_tests_and_packages_on_every_os() -> None:
    wf = workflow()
    triggers = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["tags"] == ["v*"] and "workflow_dispatch" in triggers
    job = wf["jobs"]["package"]
    assert job["runs-on"] == "${{ matrix.os }}"
    include = job["strategy"]["matrix"]["include"]
    assert {entry["os"] for entry in include} == RUNNERS
    for entry in include:
        windows = entry["os"].startswith("windows")
        assert entry["exe"] == "dist/pe-studio/pe-studio" + (".exe" if windows else "")
    steps = job["steps"]
    names = [step.get("name") for step in steps]
    build = steps[names.index("Build the bundle")]
    smoke = steps[names.index("Smoke test")]
    assert build["run"] == "pyinstaller --noconfirm --clean build.spec" and "if" not in build
    assert names.index("Build the bundle") < names.index("Smoke test")
    # The smoke step runs on every OS (no condition) with that OS's executable.
    assert "if" not in smoke
    assert smoke["run"] == 'bash packaging/smoke.sh "${{ matrix.exe }}"'
    # One packaging step per OS, after the smoke test.
    for os_name, script in {
        "Linux": "packaging/linux/check_packages.sh",
        "Windows": "packaging/windows/build_installer.ps1",
        "macOS": "packaging/macos/build_dmg.sh",
    }.items():
        matching = [
            s
            for s in steps
            if s.get("if") == f"runner.os == '{os_name}'" and script in s.get("run", "")
        ]
        assert len(matching) == 1, os_name
        assert steps.index(matching[0]) > names.index("Smoke test")
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    globs = upload["with"]["path"].split()
    assert globs == [
        "dist/pe-studio_*.deb",
        "dist/pe-studio-*.tar.gz",
        "dist/pe-studio-*-setup.exe",
        "dist/pe-studio-*.dmg",
    ]
    assert upload["with"]["if-no-files-found"] == "error"
    release = wf["jobs"]["release"]
    assert release["needs"] == "package" and release["if"].startswith("startsWith(github.ref")


def test_every_script_the_workflow_calls_exists() -> None:
    runs = [s.get("run", "") for job in workflow()["jobs"].values() for s in job["steps"]]
    called = set(re.findall(r"packaging/[\w./-]+\.(?:sh|ps1)", "\n".join(runs)))
    assert len(called) == 4
    for script in called:
        assert (ROOT / script).is_file(), script


def test_workflow_installs_python_311_and_the_pinned_pyinstaller() -> None:
    steps = workflow()["jobs"]["package"]["steps"]
    setup = next(s for s in steps if str(s.get("uses", "")).startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.11"
    install = next(s for s in steps if s.get("name") == "Install Python packages")
    pin = re.search(r"^pyinstaller==\S+$", (ROOT / "requirements-dev.txt").read_text(), re.M | re.I)
    assert pin is not None
    proc = run(
        ["bash", "-c", "tr -d '\\r' < requirements-dev.txt | grep -i '^pyinstaller=='"], cwd=ROOT
    )
    assert proc.stdout.strip() == pin.group(0)  # what the step's command substitution yields
    assert "-r requirements.txt" in install["run"]


@pytest.mark.skipif(
    shutil.which("check-jsonschema") is None, reason="check-jsonschema not installed"
)
def test_workflow_matches_the_github_workflow_schema(tmp_path: Path) -> None:
    cmd = ["check-jsonschema", "--builtin-schema", "vendor.github-workflows"]
    proc = run([*cmd, str(WORKFLOW)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    broken = tmp_path / "broken.yml"  # the check does reject a job without runs-on
    broken.write_text(WORKFLOW.read_text().replace("    runs-on: ${{ matrix.os }}\n", ""))
    assert run([*cmd, str(broken)]).returncode != 0


# ------------------------------------------------------------------ Windows and macOS recipes
def test_inno_setup_script_is_versioned_and_packages_the_bundle() -> None:
    iss = (PACKAGING / "windows" / "pe-studio.iss").read_text()
    assert "#ifndef AppVersion" in iss and "#error" in iss  # the version must be passed in
    assert "OutputBaseFilename=pe-studio-{#AppVersion}-windows-x64-setup" in iss
    assert 'Source: "{#Root}\\dist\\pe-studio\\*"' in iss
    assert "PrivilegesRequired=lowest" in iss  # no administrator rights needed
    root = re.search(r'#define Root "([^"]+)"', iss).group(1)
    icon = re.search(r"SetupIconFile=\{#Root\}\\(\S+)", iss).group(1)
    base = PACKAGING / "windows" / root.replace("\\", "/")
    assert (base / icon.replace("\\", "/")).resolve() == (ROOT / "resources/icons/pe-studio.ico")
    ps1 = (PACKAGING / "windows" / "build_installer.ps1").read_text()
    assert '"/DAppVersion=$Version"' in ps1
    assert "pe-studio-$Version-windows-x64-setup.exe" in ps1


def test_dmg_recipe_uses_the_app_that_build_spec_makes() -> None:
    spec = (ROOT / "build.spec").read_text()
    assert (
        'name=f"{PRETTY_NAME}.app"' in spec and 'PRETTY_NAME = "Positional Encoding Studio"' in spec
    )
    dmg = (PACKAGING / "macos" / "build_dmg.sh").read_text()
    assert (
        'APP_BUNDLE="$ROOT/dist/$PRETTY.app"' in dmg
        and 'PRETTY="Positional Encoding Studio"' in dmg
    )
    assert 'DMG="$ROOT/dist/pe-studio-$VERSION-macos-$(uname -m).dmg"' in dmg


def test_the_bundle_leaves_out_pygments_lexers_that_nothing_loads() -> None:
    """build.spec's own hook for Pygments collects none of its lexers, formatters or
    styles (PyInstaller's collects all 310): safe while the app never uses Pygments."""
    import ast

    spec = (ROOT / "build.spec").read_text()
    assert 'hookspath=[str(ROOT / "packaging" / "pyinstaller-hooks")]' in spec
    hook = ast.parse((PACKAGING / "pyinstaller-hooks" / "hook-pygments.py").read_text())
    assigned = {
        node.target.id: node.value
        for node in hook.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    assert ast.literal_eval(assigned["hiddenimports"]) == []
    for path in [ROOT / "main.py", *(ROOT / "core").rglob("*.py"), *(ROOT / "gui").rglob("*.py")]:
        assert "pygments" not in path.read_text(encoding="utf-8"), path


# ------------------------------------------------------------------ tarball: install.sh / uninstall.sh
def test_tarball_carries_installer_desktop_entry_and_icon(unpacked: Path) -> None:
    for name in ("install.sh", "uninstall.sh"):
        assert os.access(unpacked / name, os.X_OK)
    assert (unpacked / "pe-studio" / "_internal" / "base_library.zip").is_file()
    icon = unpacked / "share/icons/hicolor/256x256/apps/pe-studio.png"  # the PNG is 256x256
    assert icon.read_bytes() == ICON.read_bytes()
    desktop = (unpacked / "share/applications/pe-studio.desktop").read_text()
    assert desktop == (ROOT / "resources/pe-studio.desktop").read_text()
    assert "./install.sh" in (unpacked / "README.txt").read_text()


def test_install_uninstall_into_a_temporary_home(unpacked: Path, tmp_path: Path) -> None:
    home = tmp_path / "home with space"
    home.mkdir()
    opt = home / ".local/opt/pe-studio"
    proc = run([str(unpacked / "install.sh")], env=user_env(home))
    assert proc.returncode == 0, proc.stderr
    assert "is not on your PATH" in proc.stdout
    link = home / ".local/bin/pe-studio"
    assert os.readlink(link) == str(opt / "pe-studio")
    assert run([str(link), "--version"]).stdout == f"pe-studio {__version__}\n"
    desktop = (home / ".local/share/applications/pe-studio.desktop").read_text()
    assert f'Exec="{opt}/pe-studio"\n' in desktop and f"TryExec={opt}/pe-studio\n" in desktop
    assert "Icon=pe-studio\n" in desktop and "Name=Positional Encoding Studio\n" in desktop
    icon = home / ".local/share/icons/hicolor/256x256/apps/pe-studio.png"
    assert icon.read_bytes() == ICON.read_bytes()
    first = tree(home)

    # Idempotent: a second run installs exactly the same files.
    assert run([str(unpacked / "install.sh")], env=user_env(home)).returncode == 0
    assert tree(home) == first
    # Re-installing replaces the app folder as a whole (no stale files from before).
    (opt / "_internal" / "stale.txt").write_text("left from an old version")
    assert run([str(unpacked / "install.sh")], env=user_env(home)).returncode == 0
    assert tree(home) == first

    proc = run([str(unpacked / "uninstall.sh")], env=user_env(home))
    assert proc.returncode == 0, proc.stderr
    assert tree(home) == {} and not (home / ".local/opt").exists()
    proc = run([str(unpacked / "uninstall.sh")], env=user_env(home))
    assert proc.returncode == 0 and "nothing to remove" in proc.stdout
    assert tree(home) == {}


def test_the_installed_uninstaller_works_without_the_tarball(
    unpacked: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    data = tmp_path / "xdg-data"
    env = user_env(home, XDG_DATA_HOME=str(data))
    assert run([str(unpacked / "install.sh")], env=env).returncode == 0
    assert (data / "applications/pe-studio.desktop").is_file()  # $XDG_DATA_HOME is honoured
    assert not (home / ".local/share").exists()
    proc = run([str(home / ".local/opt/pe-studio/uninstall.sh")], env=env)
    assert proc.returncode == 0, proc.stderr
    assert tree(home) == {} and tree(data) == {}


def test_uninstall_keeps_what_install_sh_did_not_write(unpacked: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/share/applications").mkdir(parents=True)
    (home / ".config/PE Studio").mkdir(parents=True)
    settings = home / ".config/PE Studio/Positional Encoding Studio.conf"
    settings.write_text("[lecture]\n")
    assert run([str(unpacked / "install.sh")], env=user_env(home)).returncode == 0
    # The user points the command at another copy and writes their own menu entry.
    other = home / "elsewhere/pe-studio"
    link = home / ".local/bin/pe-studio"
    link.unlink()
    link.symlink_to(other)
    own_entry = home / ".local/share/applications/pe-studio.desktop"
    own_entry.write_text("[Desktop Entry]\nName=My build\nExec=/somewhere/pe-studio\n")
    assert run([str(unpacked / "uninstall.sh")], env=user_env(home)).returncode == 0
    assert os.readlink(link) == str(other)
    assert own_entry.read_text().startswith("[Desktop Entry]\nName=My build")
    assert settings.read_text() == "[lecture]\n"
    assert not (home / ".local/opt/pe-studio").exists()


def test_install_without_a_bundle_fails_with_one_line(tmp_path: Path) -> None:
    shutil.copy(PACKAGING / "linux" / "install.sh", tmp_path / "install.sh")
    home = tmp_path / "home"
    home.mkdir()
    proc = run(["bash", str(tmp_path / "install.sh")], env=user_env(home))
    assert proc.returncode == 1
    assert proc.stderr == f"install.sh: no app bundle at {tmp_path}/pe-studio\n"
    assert tree(home) == {}


# ------------------------------------------------------------------ .deb
@pytest.mark.skipif(not HAVE_DPKG_DEB, reason="dpkg-deb not installed")
def test_deb_control_file_and_layout(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path)
    proc = run(
        ["bash", str(PACKAGING / "linux" / "build_deb.sh")],
        env=packaging_env(bundle, tmp_path / "out", DEB_COMPRESS="gzip"),
    )
    assert proc.returncode == 0, proc.stderr
    arch = run(["dpkg", "--print-architecture"]).stdout.strip()
    deb = tmp_path / "out" / f"pe-studio_{__version__}_{arch}.deb"
    assert proc.stdout.splitlines()[-1] == str(deb)

    def field(name: str) -> str:
        return run(["dpkg-deb", "-f", str(deb), name]).stdout.strip()

    assert (field("Package"), field("Version"), field("Architecture")) == (
        "pe-studio",
        __version__,
        arch,
    )
    depends = [d.strip() for d in field("Depends").split(",")]
    names = [d.split(" ")[0] for d in depends]
    for lib in XCB_DEPENDS:
        assert lib in names, lib
    libc = next(d for d in depends if d.startswith("libc6"))
    assert re.fullmatch(r"libc6 \(>= \d+\.\d+\)", libc), libc
    assert "libwayland-cursor0" in field("Recommends")
    assert int(field("Installed-Size")) > 0

    listing = run(["dpkg-deb", "-c", str(deb)]).stdout.splitlines()
    entries = {line.split()[5]: line for line in listing}
    assert "./opt/pe-studio/pe-studio" in entries
    assert "./opt/pe-studio/_internal/base_library.zip" in entries
    assert entries["./usr/bin/pe-studio"].endswith(
        "./usr/bin/pe-studio -> /opt/pe-studio/pe-studio"
    )
    assert "./usr/share/applications/pe-studio.desktop" in entries
    assert "./usr/share/icons/hicolor/256x256/apps/pe-studio.png" in entries
    assert all(" root/root " in line for line in listing)
    assert entries["./opt/pe-studio/pe-studio"].startswith("-rwxr-xr-x")
    # No maintainer scripts: removal is dpkg's own file list, nothing else runs.
    extracted = tmp_path / "control"
    run(["dpkg-deb", "-e", str(deb), str(extracted)])
    assert sorted(p.name for p in extracted.iterdir()) == ["control"]


@pytest.mark.skipif(
    not HAVE_DPKG_DEB or shutil.which("ldd") is None or not Path("/usr/bin/xz").is_file(),
    reason="needs dpkg, ldd and /usr/bin/xz",
)
def test_deb_build_refuses_a_system_library_of_an_undeclared_package(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path)
    # xz links liblzma from the system; no declared dependency provides it.
    shutil.copy("/usr/bin/xz", bundle / "_internal" / "helper.so")
    script = ["bash", str(PACKAGING / "linux" / "build_deb.sh")]
    proc = run(script, env=packaging_env(bundle, tmp_path / "out", DEB_COMPRESS="gzip"))
    assert proc.returncode == 1
    assert "undeclared packages: liblzma" in proc.stderr
    assert not list(tmp_path.glob("out/*.deb"))
    env = packaging_env(bundle, tmp_path / "out", DEB_COMPRESS="gzip", ALLOW_UNDECLARED_LIBS="1")
    proc = run(script, env=env)
    assert (
        proc.returncode == 0 and "warning: system libraries of undeclared packages" in proc.stdout
    )


# ------------------------------------------------------------------ smoke.sh and check_packages.sh
@pytest.mark.parametrize(
    ("mode", "failed"),
    [("ok", None), ("no-png", "export exited"), ("no-selftest", "GUI self-test exited")],
)
def test_smoke_script_checks_version_export_and_selftest(
    tmp_path: Path, mode: str, failed: str | None
) -> None:
    bundle = make_bundle(tmp_path, mode)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pe-studio").symlink_to(bundle / "pe-studio")
    proc = run(["bash", str(PACKAGING / "smoke.sh"), "--clean-env", str(bin_dir), "pe-studio"])
    if failed is None:
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines() == [
            f"[smoke] --version: pe-studio {__version__}",
            "[smoke] export: x.png 640x360",
            "[smoke] GUI self-test (offscreen): first-frame-ms: 5",
        ]
    else:
        assert proc.returncode == 1
        fails = [line for line in proc.stderr.splitlines() if "FAIL:" in line]
        assert len(fails) == 1 and failed in fails[0], proc.stderr


def test_smoke_script_rejects_a_wrong_version(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path)
    exe = bundle / "pe-studio"
    exe.write_text(exe.read_text().replace(f"pe-studio {__version__}", "pe-studio 0.0.1"))
    proc = run(["bash", str(PACKAGING / "smoke.sh"), str(exe)])
    assert proc.returncode == 1
    assert "printed 'pe-studio 0.0.1' (expected 'pe-studio " in proc.stderr


def test_check_packages_per_user_half_on_a_fake_bundle(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path)
    env = packaging_env(bundle, tmp_path / "out", CHECK_DEB="0", DEB_COMPRESS="gzip")
    proc = run(["bash", str(PACKAGING / "linux" / "check_packages.sh")], env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "install.sh twice: the same files both times" in out
    assert "tarball: smoke test passed" in out
    assert "tarball: the menu entry (Exec=" in out
    assert "uninstall.sh again: nothing to remove" in out
    assert "(the installed copy): nothing left" in out
    assert out.rstrip().endswith("RESULT: OK")


def test_check_packages_fails_when_the_installed_app_is_broken(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path, "no-selftest")
    env = packaging_env(bundle, tmp_path / "out", CHECK_DEB="0", DEB_COMPRESS="gzip")
    proc = run(["bash", str(PACKAGING / "linux" / "check_packages.sh")], env=env)
    assert proc.returncode == 1
    assert "FAIL: tarball: smoke test failed" in proc.stderr
    assert "FAIL: tarball: menu entry Exec=" in proc.stderr


# ------------------------------------------------------------------ all scripts
SCRIPTS = sorted(PACKAGING.rglob("*.sh")) + sorted((ROOT / ".ci").glob("*.sh")) + [ROOT / ".ci/run"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_script_parses(script: Path) -> None:
    proc = run(["bash", "-n", str(script)])
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_packaging_scripts_pass_shellcheck() -> None:
    scripts = [str(p.relative_to(ROOT)) for p in sorted(PACKAGING.rglob("*.sh"))]
    proc = run(["shellcheck", "-x", *scripts], cwd=ROOT)
    assert proc.returncode == 0, proc.stdout
