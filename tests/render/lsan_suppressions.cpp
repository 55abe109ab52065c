// LeakSanitizer reads this hook when the tests run under ASan (UBOT_SANITIZE). Fontconfig,
// which Cairo uses to find the caption font, leaks a few hundred bytes while parsing its XML
// configuration (FcInitLoadConfigAndFonts) once per process; that is not ours to fix, and
// without this the ASan test run would fail on it. Harmless in builds without LSan.
extern "C" const char* __lsan_default_suppressions();  // NOLINT: name fixed by LSan

extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }
