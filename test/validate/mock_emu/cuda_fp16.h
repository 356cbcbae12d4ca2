// Minimal half type for the harness tests' serial stand-in.
#pragma once
struct __half { unsigned short bits; };
typedef __half half;
