// format_dump: exposes the codecs and quantizers of src/formats to scripts, so that
// tests/python/test_formats_mldtypes.py can compare them bit for bit with ml_dtypes.
// All files are raw little-endian arrays (float32 / uint16 / uint8), no header.
//
//   format_dump tables
//       print every e2m1 / e4m3 / e8m0 code with its value (human-readable).
//   format_dump decode CODEC OUT.f32
//       CODEC in {bf16, e4m3, e8m0, e2m1}: write the float32 value of every code
//       (65536 / 256 / 256 / 16 floats).
//   format_dump encode CODEC IN.f32 OUT.bin
//       CODEC in {bf16 (uint16 out), e4m3 (saturating), e4m3_nosat, e8m0, e8m0_floor_log2,
//       e8m0_ceil_log2, e2m1}: encode every float of IN.
//   format_dump quant RECIPE IN.f32 M K OUTPREFIX
//       RECIPE in {fp8_block_weight, fp8_block_weight_ue8m0, fp8_act, fp8_act_ue8m0,
//       mx_e2m1, mx_e4m3, nvfp4}. IN holds M*K floats, row-major. Writes
//       OUTPREFIX.codes, OUTPREFIX.scales (float32 for fp8, uint8 codes otherwise),
//       OUTPREFIX.dequant (float32 [M,K]) and, for nvfp4, OUTPREFIX.global (1 float32).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "formats/codecs.h"
#include "formats/quantize.h"

namespace fmt = megamoe::formats;

namespace {

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "format_dump: %s\n", msg.c_str());
  std::exit(2);
}

std::vector<float> read_f32(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) die("cannot open " + path);
  const std::streamsize bytes = f.tellg();
  if (bytes % 4 != 0) die(path + ": size is not a multiple of 4");
  std::vector<float> v(size_t(bytes / 4));
  f.seekg(0);
  f.read(reinterpret_cast<char*>(v.data()), bytes);
  if (!f) die("cannot read " + path);
  return v;
}

template <class T>
void write_raw(const std::string& path, const std::vector<T>& v) {
  std::ofstream f(path, std::ios::binary);
  if (!f) die("cannot create " + path);
  f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
  if (!f) die("cannot write " + path);
}

int cmd_tables() {
  std::printf("# e2m1: code value\n");
  for (int c = 0; c < 16; ++c) std::printf("e2m1 0x%X %.9g\n", c, fmt::e2m1_to_float(uint8_t(c)));
  std::printf("# e4m3 (float8_e4m3fn): code value\n");
  for (int c = 0; c < 256; ++c) std::printf("e4m3 0x%02X %.9g\n", c, fmt::e4m3_to_float(uint8_t(c)));
  std::printf("# e8m0 (float8_e8m0fnu): code value\n");
  for (int c = 0; c < 256; ++c) std::printf("e8m0 0x%02X %.9g\n", c, fmt::e8m0_to_float(uint8_t(c)));
  return 0;
}

int cmd_decode(const std::string& codec, const std::string& out) {
  std::vector<float> v;
  if (codec == "bf16") {
    for (uint32_t c = 0; c < 65536; ++c) v.push_back(fmt::bf16_bits_to_float(uint16_t(c)));
  } else if (codec == "e4m3") {
    for (uint32_t c = 0; c < 256; ++c) v.push_back(fmt::e4m3_to_float(uint8_t(c)));
  } else if (codec == "e8m0") {
    for (uint32_t c = 0; c < 256; ++c) v.push_back(fmt::e8m0_to_float(uint8_t(c)));
  } else if (codec == "e2m1") {
    for (uint32_t c = 0; c < 16; ++c) v.push_back(fmt::e2m1_to_float(uint8_t(c)));
  } else {
    die("unknown codec " + codec);
  }
  write_raw(out, v);
  return 0;
}

int cmd_encode(const std::string& codec, const std::string& in, const std::string& out) {
  const std::vector<float> x = read_f32(in);
  if (codec == "bf16") {
    std::vector<uint16_t> c(x.size());
    for (size_t i = 0; i < x.size(); ++i) c[i] = fmt::float_to_bf16_bits(x[i]);
    write_raw(out, c);
    return 0;
  }
  std::vector<uint8_t> c(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (codec == "e4m3") c[i] = fmt::float_to_e4m3(x[i], true);
    else if (codec == "e4m3_nosat") c[i] = fmt::float_to_e4m3(x[i], false);
    else if (codec == "e8m0") c[i] = fmt::float_to_e8m0(x[i]);
    else if (codec == "e8m0_floor_log2") c[i] = fmt::e8m0_floor_log2(x[i]);
    else if (codec == "e8m0_ceil_log2") c[i] = fmt::e8m0_ceil_log2(x[i]);
    else if (codec == "e2m1") c[i] = fmt::float_to_e2m1(x[i]);
    else die("unknown codec " + codec);
  }
  write_raw(out, c);
  return 0;
}

int cmd_quant(const std::string& recipe, const std::string& in, int64_t M, int64_t K,
              const std::string& prefix) {
  const std::vector<float> x = read_f32(in);
  if (int64_t(x.size()) != M * K) die("input holds " + std::to_string(x.size()) + " floats, not M*K");
  std::vector<float> deq(size_t(M * K));
  const int64_t B = fmt::kFp8BlockSize;
  if (recipe == "fp8_block_weight" || recipe == "fp8_block_weight_ue8m0") {
    const bool ue8m0 = recipe.ends_with("_ue8m0");
    std::vector<uint8_t> codes(size_t(M * K));
    std::vector<float> scales(size_t(((M + B - 1) / B) * ((K + B - 1) / B)));
    fmt::quantize_fp8_block_weight(x.data(), M, K, codes.data(), scales.data(), ue8m0);
    fmt::dequantize_fp8_block_weight(codes.data(), scales.data(), M, K, deq.data());
    write_raw(prefix + ".codes", codes);
    write_raw(prefix + ".scales", scales);
  } else if (recipe == "fp8_act" || recipe == "fp8_act_ue8m0") {
    const bool ue8m0 = recipe.ends_with("_ue8m0");
    std::vector<uint8_t> codes(size_t(M * K));
    std::vector<float> scales(size_t(M * ((K + B - 1) / B)));
    fmt::quantize_fp8_act_1x128(x.data(), M, K, K, codes.data(), scales.data(), ue8m0);
    fmt::dequantize_fp8_act_1x128(codes.data(), scales.data(), M, K, deq.data());
    write_raw(prefix + ".codes", codes);
    write_raw(prefix + ".scales", scales);
  } else if (recipe == "mx_e2m1" || recipe == "mx_e4m3") {
    const auto elem = recipe == "mx_e2m1" ? fmt::MxElem::kE2M1 : fmt::MxElem::kE4M3;
    std::vector<uint8_t> codes(size_t(elem == fmt::MxElem::kE2M1 ? M * K / 2 : M * K));
    std::vector<uint8_t> scales(size_t(M * (K / fmt::kMxBlockSize)));
    fmt::quantize_mx(x.data(), M, K, K, elem, codes.data(), scales.data());
    fmt::dequantize_mx(codes.data(), scales.data(), M, K, elem, deq.data());
    write_raw(prefix + ".codes", codes);
    write_raw(prefix + ".scales", scales);
  } else if (recipe == "nvfp4") {
    const float g = fmt::nvfp4_global_scale(x.data(), M * K);
    std::vector<uint8_t> codes(size_t(M * K / 2));
    std::vector<uint8_t> scales(size_t(M * (K / fmt::kNvfp4BlockSize)));
    fmt::quantize_nvfp4(x.data(), M, K, K, g, codes.data(), scales.data());
    fmt::dequantize_nvfp4(codes.data(), scales.data(), g, M, K, deq.data());
    write_raw(prefix + ".codes", codes);
    write_raw(prefix + ".scales", scales);
    write_raw(prefix + ".global", std::vector<float>{g});
  } else {
    die("unknown recipe " + recipe);
  }
  write_raw(prefix + ".dequant", deq);
  return 0;
}

void usage() {
  std::fprintf(stderr,
               "usage: format_dump tables\n"
               "       format_dump decode {bf16|e4m3|e8m0|e2m1} OUT.f32\n"
               "       format_dump encode CODEC IN.f32 OUT.bin\n"
               "       format_dump quant RECIPE IN.f32 M K OUTPREFIX\n");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "tables" && argc == 2) return cmd_tables();
    if (cmd == "decode" && argc == 4) return cmd_decode(argv[2], argv[3]);
    if (cmd == "encode" && argc == 5) return cmd_encode(argv[2], argv[3], argv[4]);
    if (cmd == "quant" && argc == 7) {
      return cmd_quant(argv[2], argv[3], std::atoll(argv[4]), std::atoll(argv[5]), argv[6]);
    }
  } catch (const std::exception& e) {
    die(e.what());
  }
  usage();
  return 2;
}
