// Scratch<T>: working storage that copies of its owner leave out (sensor snapshots).
#include "ubot/core/scratch.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace ubot {
namespace {

struct Owner {
  std::vector<int> state;
  Scratch<std::vector<int>> scratch;
};

TEST(Scratch, ACopyStartsEmpty) {
  Owner a{{1, 2, 3}, {}};
  a.scratch->assign(1000, 7);
  const Owner b = a;
  EXPECT_EQ(b.state, a.state);
  EXPECT_TRUE(b.scratch->empty());
  EXPECT_EQ(a.scratch->size(), 1000u);  // the source keeps its own
}

TEST(Scratch, AnAssignmentKeepsTheTargetsStorage) {
  Owner source{{4, 5}, {}};
  source.scratch->assign(3, 9);
  Owner target{{}, {}};
  target.scratch->assign(100, 1);
  const int* storage = target.scratch->data();
  target = source;
  EXPECT_EQ(target.state, source.state);
  EXPECT_EQ(*target.scratch, std::vector<int>(100, 1));
  EXPECT_EQ(target.scratch->data(), storage);  // no reallocation
}

TEST(Scratch, AMoveTakesTheStorageAlong) {
  Owner a{{1}, {}};
  a.scratch->assign(10, 2);
  const int* storage = a.scratch->data();
  Owner b = std::move(a);
  EXPECT_EQ(b.scratch->data(), storage);
  Owner c{{}, {}};
  c = std::move(b);
  EXPECT_EQ(c.scratch->data(), storage);
}

}  // namespace
}  // namespace ubot
