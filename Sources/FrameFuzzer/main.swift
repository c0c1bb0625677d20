// The fuzz entry point lands here.
#if !FUZZING
print("FrameFuzzer: build with scripts/fuzz.sh")
#endif
