// NCCL is loaded at run time (src/ep/nccl_api.h): `import megamoe` and programs that never make
// an EpGroup need no libnccl. These tests check the loader's errors and, where this machine has
// a libnccl.so.2, that every function resolves and the version is new enough.
#include <gtest/gtest.h>

#include <string>

#include "megamoe/ep.h"
#include "megamoe/errors.h"

#if defined(MEGAMOE_WITH_NCCL)
#include "ep/nccl_api.h"
#endif

namespace megamoe {
namespace {

TEST(EpGroupAvailability, ReasonIsEmptyExactlyWhenAvailable) {
  const bool a = EpGroup::available();
  const std::string why = EpGroup::unavailable_reason();
  EXPECT_EQ(a, why.empty()) << why;
  if (!a) {
    try {
      EpGroup::new_unique_id();
      ADD_FAILURE() << "new_unique_id() worked although available() is false";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("NCCL"), std::string::npos) << e.what();
    }
  }
}

#if defined(MEGAMOE_WITH_NCCL)
TEST(NcclLoader, MissingLibraryIsAnErrorThatNamesIt) {
  const ep::NcclLoad r = ep::load_nccl("/nonexistent/libnccl.so.2");
  EXPECT_NE(r.error.find("/nonexistent/libnccl.so.2"), std::string::npos) << r.error;
}

TEST(NcclLoader, ALibraryWithoutNcclNamesTheMissingFunctions) {
  const ep::NcclLoad r = ep::load_nccl("libm.so.6");
  EXPECT_NE(r.error.find("lacks"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("ncclCommWindowRegister"), std::string::npos) << r.error;
}

TEST(NcclLoader, TheLoadersLibnccl) {
  const ep::NcclLoad r = ep::load_nccl("libnccl.so.2");
  if (!r.error.empty()) GTEST_SKIP() << "no usable libnccl.so.2 on this machine: " << r.error;
  EXPECT_GE(r.api.version, ep::kMinNcclVersion);
  for (const void* f : {(const void*)r.api.GetUniqueId, (const void*)r.api.CommInitRank, (const void*)r.api.TeamLsa,
                        (const void*)r.api.MemAlloc, (const void*)r.api.CommWindowRegister,
                        (const void*)r.api.CommShrink, (const void*)r.api.AllReduce})
    EXPECT_NE(f, nullptr);
  EXPECT_STREQ(r.api.GetErrorString(ncclSuccess), "no error");
}
#endif

}  // namespace
}  // namespace megamoe
