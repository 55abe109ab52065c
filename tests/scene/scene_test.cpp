#include <gtest/gtest.h>
TEST(Scene, Placeholder) {}
