#pragma once
// The one place that tells Embree 3 (Debian 12) from Embree 4 (Debian 13, Ubuntu 24.04).
//
// Everything ubot uses is the same in both but the ray query: Embree 3 traces with an
// RTCIntersectContext that carries the coherence flags, Embree 4 with an RTCRayQueryContext
// and the flags in RTCIntersectArguments; and Embree 4 hands filter callbacks a const context.
// CMake defines UBOT_EMBREE_MAJOR from the Embree it found (src/scene/CMakeLists.txt).
#if defined(UBOT_EMBREE_MAJOR) && UBOT_EMBREE_MAJOR >= 4
#include <embree4/rtcore.h>
#else
#include <embree3/rtcore.h>
#endif

namespace ubot::scene::internal::rtc {

#if RTC_VERSION_MAJOR >= 4
using QueryContext = RTCRayQueryContext;
using QueryFlags = RTCRayQueryFlags;
inline constexpr QueryFlags kCoherent = RTC_RAY_QUERY_FLAG_COHERENT;
inline constexpr QueryFlags kIncoherent = RTC_RAY_QUERY_FLAG_INCOHERENT;

inline void init(QueryContext* context) { rtcInitRayQueryContext(context); }

inline RTCIntersectArguments arguments(QueryContext* context, QueryFlags flags) {
  RTCIntersectArguments args;
  rtcInitIntersectArguments(&args);
  args.context = context;
  args.flags = flags;
  return args;
}

inline void intersect1(RTCScene scene, QueryContext* context, QueryFlags flags, RTCRayHit* rh) {
  RTCIntersectArguments args = arguments(context, flags);
  rtcIntersect1(scene, rh, &args);
}

inline void intersect16(const int* valid, RTCScene scene, QueryContext* context, QueryFlags flags,
                        RTCRayHit16* rh) {
  RTCIntersectArguments args = arguments(context, flags);
  rtcIntersect16(valid, scene, rh, &args);
}

inline void intersect8(const int* valid, RTCScene scene, QueryContext* context, QueryFlags flags,
                       RTCRayHit8* rh) {
  RTCIntersectArguments args = arguments(context, flags);
  rtcIntersect8(valid, scene, rh, &args);
}

inline void intersect4(const int* valid, RTCScene scene, QueryContext* context, QueryFlags flags,
                       RTCRayHit4* rh) {
  RTCIntersectArguments args = arguments(context, flags);
  rtcIntersect4(valid, scene, rh, &args);
}
#else
using QueryContext = RTCIntersectContext;
using QueryFlags = RTCIntersectContextFlags;
inline constexpr QueryFlags kCoherent = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
inline constexpr QueryFlags kIncoherent = RTC_INTERSECT_CONTEXT_FLAG_INCOHERENT;

inline void init(QueryContext* context) { rtcInitIntersectContext(context); }

inline void intersect1(RTCScene scene, QueryContext* context, QueryFlags flags, RTCRayHit* rh) {
  context->flags = flags;
  rtcIntersect1(scene, context, rh);
}

inline void intersect16(const int* valid, RTCScene scene, QueryContext* context, QueryFlags flags,
                        RTCRayHit16* rh) {
  context->flags = flags;
  rtcIntersect16(valid, scene, context, rh);
}

inline void intersect8(const int* valid, RTCScene scene, QueryContext* context, QueryFlags flags,
                       RTCRayHit8* rh) {
  context->flags = flags;
  rtcIntersect8(valid, scene, context, rh);
}

inline void intersect4(const int* valid, RTCScene scene, QueryContext* context, QueryFlags flags,
                       RTCRayHit4* rh) {
  context->flags = flags;
  rtcIntersect4(valid, scene, context, rh);
}
#endif

}  // namespace ubot::scene::internal::rtc
