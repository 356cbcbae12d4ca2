// Rules: none (emulator runtime): the collectives are in hipcub/hipcub.hpp
#include "../hipcub.hpp"
