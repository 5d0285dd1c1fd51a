// The two kinds of bad input every layer can report; they are public (a user's binary catches them too).
#pragma once

#include "cudabench/errors.hpp"
