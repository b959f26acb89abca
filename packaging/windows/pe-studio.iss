; Inno Setup 6 script: the Windows installer of Positional Encoding Studio.
;
; Build the bundle first (pyinstaller --noconfirm --clean build.spec -> dist\pe-studio\),
; then compile, passing the version from core\version.py:
;     iscc /DAppVersion=1.0.0 packaging\windows\pe-studio.iss
; -> dist\pe-studio-<version>-windows-x64-setup.exe
; packaging\windows\build_installer.ps1 does both steps and checks the result.
;
; The installer needs no administrator rights: it installs for the current user into
; %LOCALAPPDATA%\Programs\Positional Encoding Studio (an administrator may choose "all
; users" in its first dialog), adds a Start-menu entry (and, if ticked, a desktop icon)
; and registers an uninstaller in "Apps & features". The uninstaller removes every file
; it installed; the app's settings in the registry (HKCU\Software\PE Studio) are kept.

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=<__version__ of core\version.py> pe-studio.iss
#endif
#define AppName "Positional Encoding Studio"
#define AppExe "pe-studio.exe"
; Paths below are relative to this file's folder.
#define Root "..\.."

[Setup]
AppId={{82132DE1-FF97-41FF-9477-18769C1F9E8D}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#Root}\dist
OutputBaseFilename=pe-studio-{#AppVersion}-windows-x64-setup
SetupIconFile={#Root}\resources\icons\pe-studio.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName} {#AppVersion}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Root}\dist\pe-studio\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
