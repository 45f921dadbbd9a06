#pragma once
#include "megamoe/config.h"
#include "megamoe/errors.h"
#include "megamoe/layer.h"
#include "megamoe/quantize.h"
#include "megamoe/tensor.h"
#include "megamoe/weights.h"
