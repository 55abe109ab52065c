#include "ubot/scene/scene.h"
