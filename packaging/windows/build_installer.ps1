# Windows: compile the Inno Setup installer and check it the way a lecturer gets it.
#
# Usage (PowerShell, repository root, after `pyinstaller --noconfirm --clean build.spec`):
#     pwsh packaging/windows/build_installer.ps1
# 1. iscc /DAppVersion=<core/version.py> packaging/windows/pe-studio.iss
#    -> dist/pe-studio-<version>-windows-x64-setup.exe   (Inno Setup 6 is installed with
#    Chocolatey when iscc is not found)
# 2. silent per-user install; the Start-menu entry must exist; packaging/smoke.sh (Git Bash)
#    runs the installed pe-studio.exe (--version, PNG export, offscreen self-test)
# 3. silent uninstall; the install folder and the Start-menu entry must be gone
# 4. prints the installer's size (limit 75 MB: reported as a failure when exceeded)
$ErrorActionPreference = 'Stop'
$Root = (Resolve-Path (Join-Path $PSScriptRoot '..\..')).Path
$Version = (Select-String -Path (Join-Path $Root 'core\version.py') -Pattern '^__version__ = "(.*)"$').Matches[0].Groups[1].Value
$AppName = 'Positional Encoding Studio'

$Iscc = (Get-Command iscc.exe -ErrorAction SilentlyContinue).Source
if (-not $Iscc) { $Iscc = Join-Path ${env:ProgramFiles(x86)} 'Inno Setup 6\ISCC.exe' }
if (-not (Test-Path $Iscc)) {
    choco install innosetup -y --no-progress
    if ($LASTEXITCODE) { throw 'could not install Inno Setup' }
}
& $Iscc "/DAppVersion=$Version" (Join-Path $Root 'packaging\windows\pe-studio.iss')
if ($LASTEXITCODE) { throw "iscc failed ($LASTEXITCODE)" }
$Setup = Join-Path $Root "dist\pe-studio-$Version-windows-x64-setup.exe"
$SizeMB = [math]::Round((Get-Item $Setup).Length / 1MB, 1)
Write-Host "[windows] built $Setup ($SizeMB MB, limit 75)"

$Dir = Join-Path $env:LOCALAPPDATA "Programs\$AppName"
$Shortcut = Join-Path $env:APPDATA "Microsoft\Windows\Start Menu\Programs\$AppName.lnk"
$p = Start-Process -Wait -PassThru -FilePath $Setup -ArgumentList '/VERYSILENT', '/SUPPRESSMSGBOXES', '/NORESTART', '/CURRENTUSER'
if ($p.ExitCode) { throw "installer exited $($p.ExitCode)" }
foreach ($f in @((Join-Path $Dir 'pe-studio.exe'), $Shortcut)) {
    if (-not (Test-Path $f)) { throw "not installed: $f" }
}
$Bash = Join-Path $env:ProgramFiles 'Git\bin\bash.exe'  # Git Bash, not WSL's bash
& $Bash (Join-Path $Root 'packaging/smoke.sh').Replace('\', '/') (Join-Path $Dir 'pe-studio.exe').Replace('\', '/')
if ($LASTEXITCODE) { throw 'smoke test of the installed app failed' }

$p = Start-Process -Wait -PassThru -FilePath (Join-Path $Dir 'unins000.exe') -ArgumentList '/VERYSILENT', '/SUPPRESSMSGBOXES', '/NORESTART'
if ($p.ExitCode) { throw "uninstaller exited $($p.ExitCode)" }
# The uninstaller re-launches itself from %TEMP% and returns at once: wait for it.
for ($i = 0; $i -lt 120 -and ((Test-Path $Dir) -or (Test-Path $Shortcut)); $i++) { Start-Sleep -Seconds 1 }
if ((Test-Path $Dir) -or (Test-Path $Shortcut)) { throw "uninstall left $Dir or $Shortcut" }
Write-Host "[windows] install, smoke test and uninstall: OK"
if ($SizeMB -gt 75) { throw "installer $SizeMB MB > 75 MB" }
