// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: crush/crush_hash.h
// -----------------------------------------------------------------------------
//
// The integer and string hashes of Ceph's CRUSH and object placement, and
// `crush_ln`, the fixed-point log2 straw2 draws with, bit-exact with Ceph
// 16.2 (src/crush/hash.c, src/crush/mapper.c, src/crush/crush_ln_table.h,
// src/common/ceph_hash.cc, src/include/rados.h), as specified in the
// project's CRUSH design notes (§2, §3, §11). Written from that
// specification; no Ceph code is copied.
//
// Definition.
//   * Mix(a, b, c): Bob Jenkins' 1996 96-bit mix on unsigned 32-bit words,
//     statement by statement, in place.
//   * Hash32_1 .. Hash32_4: CRUSH hash type 0 ("rjenkins1", Ceph's
//     crush_hash32, crush_hash32_2, ...): h = 1315423911 ^ the arguments,
//     then a fixed sequence of mixes with the constants 231232 and 1232.
//   * CrushLn(u), u in 0..0xFFFF: about 2^44 log2(u + 1), as a u64, through
//     two tables: kRhLh (258 entries, 2^55 / (128 + k) rounded up and
//     2^48 log2(1 + k / 128) rounded down, last entry 0xFFFF00000000) and
//     kLl (256 entries, transcribed as Ceph ships them: they do not follow
//     their nominal formula, and the mapping depends on the shipped values).
//   * StrHashRjenkins: Jenkins' lookup2 over the bytes with initial value 0
//     (ceph_str_hash_rjenkins, the object-name hash of pools with
//     object_hash rjenkins). StrHashLinux: the dcache hash
//     (ceph_str_hash_linux).
//   * StableMod(x, b, bmask): ceph_stable_mod, x mod b that moves few values
//     when b grows (bmask = 2^bits(b - 1) - 1).
//
// Guarantees: equal to the Debian 16.2.15 library on all 246 vectors of
// testdata/hash-vectors.tsv; the tables' SHA-256 (little-endian int64) are
// the design notes' (crush_test.cc checks both). Everything is constexpr.
//
// Complexity: O(1) each (Hash32_3: five mixes); the string hashes O(length).
//
// Example:
//   uint32_t h = crush::Hash32_3(x, static_cast<uint32_t>(item), r);
//   uint64_t ln = crush::CrushLn(h & 0xFFFF);  // straw2's draw numerator

#ifndef CHBENCH_ALGORITHMS_CRUSH_CRUSH_HASH_H_
#define CHBENCH_ALGORITHMS_CRUSH_CRUSH_HASH_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace chbench::crush {

inline constexpr uint32_t kHashSeed = 1315423911u;  // 0x4E67C6A7

// In place, each line seeing the values the lines above produced.
// clang-format off
constexpr void Mix(uint32_t& a, uint32_t& b, uint32_t& c) {
  a -= b; a -= c; a ^= c >> 13;
  b -= c; b -= a; b ^= a << 8;
  c -= a; c -= b; c ^= b >> 13;
  a -= b; a -= c; a ^= c >> 12;
  b -= c; b -= a; b ^= a << 16;
  c -= a; c -= b; c ^= b >> 5;
  a -= b; a -= c; a ^= c >> 3;
  b -= c; b -= a; b ^= a << 10;
  c -= a; c -= b; c ^= b >> 15;
}
// clang-format on

constexpr uint32_t Hash32_1(uint32_t a) {
  uint32_t h = kHashSeed ^ a;
  uint32_t b = a, x = 231232, y = 1232;
  Mix(b, x, h);
  Mix(y, a, h);
  return h;
}

constexpr uint32_t Hash32_2(uint32_t a, uint32_t b) {
  uint32_t h = kHashSeed ^ a ^ b;
  uint32_t x = 231232, y = 1232;
  Mix(a, b, h);
  Mix(x, a, h);
  Mix(b, y, h);
  return h;
}

constexpr uint32_t Hash32_3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t h = kHashSeed ^ a ^ b ^ c;
  uint32_t x = 231232, y = 1232;
  Mix(a, b, h);
  Mix(c, x, h);
  Mix(y, a, h);
  Mix(b, x, h);
  Mix(y, c, h);
  return h;
}

constexpr uint32_t Hash32_4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  uint32_t h = kHashSeed ^ a ^ b ^ c ^ d;
  uint32_t x = 231232, y = 1232;
  Mix(a, b, h);
  Mix(c, d, h);
  Mix(a, x, h);
  Mix(y, b, h);
  Mix(c, x, h);
  Mix(y, d, h);
  return h;
}

// __RH_LH_tbl: pairs (RH, LH) for k = 0..128 (design notes, Appendix A).
// clang-format off
inline constexpr uint64_t kRhLh[258] = {
    0x1000000000000ULL, 0x000000000000ULL, 0xfe03f80fe040ULL,
    0x02dfca16dde1ULL, 0xfc0fc0fc0fc1ULL, 0x05b9e5a170b4ULL,
    0xfa232cf25214ULL, 0x088e68ea899aULL, 0xf83e0f83e0f9ULL,
    0x0b5d69bac77eULL, 0xf6603d980f67ULL, 0x0e26fd5c8555ULL,
    0xf4898d5f85bcULL, 0x10eb389fa29fULL, 0xf2b9d6480f2cULL,
    0x13aa2fdd27f1ULL, 0xf0f0f0f0f0f1ULL, 0x1663f6fac913ULL,
    0xef2eb71fc435ULL, 0x1918a16e4633ULL, 0xed7303b5cc0fULL,
    0x1bc84240adabULL, 0xebbdb2a5c162ULL, 0x1e72ec117fa5ULL,
    0xea0ea0ea0ea1ULL, 0x2118b119b4f3ULL, 0xe865ac7b7604ULL,
    0x23b9a32eaa56ULL, 0xe6c2b4481cd9ULL, 0x2655d3c4f15cULL,
    0xe525982af70dULL, 0x28ed53f307eeULL, 0xe38e38e38e39ULL,
    0x2b803473f7adULL, 0xe1fc780e1fc8ULL, 0x2e0e85a9de04ULL,
    0xe070381c0e08ULL, 0x309857a05e07ULL, 0xdee95c4ca038ULL,
    0x331dba0efce1ULL, 0xdd67c8a60dd7ULL, 0x359ebc5b69d9ULL,
    0xdbeb61eed19dULL, 0x381b6d9bb29bULL, 0xda740da740dbULL,
    0x3a93dc9864b2ULL, 0xd901b2036407ULL, 0x3d0817ce9cd4ULL,
    0xd79435e50d7aULL, 0x3f782d7204d0ULL, 0xd62b80d62b81ULL,
    0x41e42b6ec0c0ULL, 0xd4c77b03531eULL, 0x444c1f6b4c2dULL,
    0xd3680d3680d4ULL, 0x46b016ca47c1ULL, 0xd20d20d20d21ULL,
    0x49101eac381cULL, 0xd0b69fcbd259ULL, 0x4b6c43f1366aULL,
    0xcf6474a8819fULL, 0x4dc4933a9337ULL, 0xce168a772509ULL,
    0x501918ec6c11ULL, 0xcccccccccccdULL, 0x5269e12f346eULL,
    0xcb8727c065c4ULL, 0x54b6f7f1325aULL, 0xca4587e6b750ULL,
    0x570068e7ef5aULL, 0xc907da4e8712ULL, 0x59463f919deeULL,
    0xc7ce0c7ce0c8ULL, 0x5b8887367433ULL, 0xc6980c6980c7ULL,
    0x5dc74ae9fbecULL, 0xc565c87b5f9eULL, 0x6002958c5871ULL,
    0xc4372f855d83ULL, 0x623a71cb82c8ULL, 0xc30c30c30c31ULL,
    0x646eea247c5cULL, 0xc1e4bbd595f7ULL, 0x66a008e4788cULL,
    0xc0c0c0c0c0c1ULL, 0x68cdd829fd81ULL, 0xbfa02fe80bfbULL,
    0x6af861e5fc7dULL, 0xbe82fa0be830ULL, 0x6d1fafdce20aULL,
    0xbd6910470767ULL, 0x6f43cba79e40ULL, 0xbc52640bc527ULL,
    0x7164beb4a56dULL, 0xbb3ee721a54eULL, 0x73829248e961ULL,
    0xba2e8ba2e8bbULL, 0x759d4f80cba8ULL, 0xb92143fa36f6ULL,
    0x77b4ff5108d9ULL, 0xb81702e05c0cULL, 0x79c9aa879d53ULL,
    0xb70fbb5a19bfULL, 0x7bdb59cca388ULL, 0xb60b60b60b61ULL,
    0x7dea15a32c1bULL, 0xb509e68a9b95ULL, 0x7ff5e66a0ffeULL,
    0xb40b40b40b41ULL, 0x81fed45cbccbULL, 0xb30f63528918ULL,
    0x8404e793fb81ULL, 0xb21642c8590cULL, 0x86082806b1d5ULL,
    0xb11fd3b80b12ULL, 0x88089d8a9e47ULL, 0xb02c0b02c0b1ULL,
    0x8a064fd50f2aULL, 0xaf3addc680b0ULL, 0x8c01467b94bbULL,
    0xae4c415c9883ULL, 0x8df988f4ae80ULL, 0xad602b580ad7ULL,
    0x8fef1e987409ULL, 0xac7691840ac8ULL, 0x91e20ea1393eULL,
    0xab8f69e2835aULL, 0x93d2602c2e5fULL, 0xaaaaaaaaaaabULL,
    0x95c01a39fbd6ULL, 0xa9c84a47a080ULL, 0x97ab43af59f9ULL,
    0xa8e83f5717c1ULL, 0x9993e355a4e5ULL, 0xa80a80a80a81ULL,
    0x9b79ffdb6c8bULL, 0xa72f0539782aULL, 0x9d5d9fd5010bULL,
    0xa655c4392d7cULL, 0x9f3ec9bcfb80ULL, 0xa57eb50295fbULL,
    0xa11d83f4c355ULL, 0xa4a9cf1d9684ULL, 0xa2f9d4c51039ULL,
    0xa3d70a3d70a4ULL, 0xa4d3c25e68dcULL, 0xa3065e3fae7dULL,
    0xa6ab52d99e76ULL, 0xa237c32b16d0ULL, 0xa8808c384547ULL,
    0xa16b312ea8fdULL, 0xaa5374652a1cULL, 0xa0a0a0a0a0a1ULL,
    0xac241134c4e9ULL, 0x9fd809fd80a0ULL, 0xadf26865a8a1ULL,
    0x9f1165e72549ULL, 0xafbe7fa0f04dULL, 0x9e4cad23dd60ULL,
    0xb1885c7aa982ULL, 0x9d89d89d89d9ULL, 0xb35004723c46ULL,
    0x9cc8e160c3fcULL, 0xb5157cf2d078ULL, 0x9c09c09c09c1ULL,
    0xb6d8cb53b0caULL, 0x9b4c6f9ef03bULL, 0xb899f4d8ab63ULL,
    0x9a90e7d95bc7ULL, 0xba58feb2703aULL, 0x99d722dabde6ULL,
    0xbc15edfeed32ULL, 0x991f1a515886ULL, 0xbdd0c7c9a817ULL,
    0x9868c809868dULL, 0xbf89910c1678ULL, 0x97b425ed097cULL,
    0xc1404eadf383ULL, 0x97012e025c05ULL, 0xc2f5058593d9ULL,
    0x964fda6c0965ULL, 0xc4a7ba58377cULL, 0x95a02568095bULL,
    0xc65871da59ddULL, 0x94f2094f2095ULL, 0xc80730b00016ULL,
    0x944580944581ULL, 0xc9b3fb6d0559ULL, 0x939a85c4093aULL,
    0xcb5ed69565afULL, 0x92f113840498ULL, 0xcd07c69d8702ULL,
    0x924924924925ULL, 0xceaecfea8085ULL, 0x91a2b3c4d5e7ULL,
    0xd053f6d26089ULL, 0x90fdbc090fdcULL, 0xd1f73f9c70c0ULL,
    0x905a38633e07ULL, 0xd398ae817906ULL, 0x8fb823ee08fcULL,
    0xd53847ac00a6ULL, 0x8f1779d9fdc4ULL, 0xd6d60f388e41ULL,
    0x8e78356d1409ULL, 0xd8720935e643ULL, 0x8dda5202376aULL,
    0xda0c39a54804ULL, 0x8d3dcb08d3ddULL, 0xdba4a47aa996ULL,
    0x8ca29c046515ULL, 0xdd3b4d9cf24bULL, 0x8c08c08c08c1ULL,
    0xded038e633f3ULL, 0x8b70344a139cULL, 0xe0636a23e2eeULL,
    0x8ad8f2fba939ULL, 0xe1f4e5170d02ULL, 0x8a42f870566aULL,
    0xe384ad748f0eULL, 0x89ae4089ae41ULL, 0xe512c6e54998ULL,
    0x891ac73ae982ULL, 0xe69f35065448ULL, 0x888888888889ULL,
    0xe829fb693044ULL, 0x87f78087f781ULL, 0xe9b31d93f98eULL,
    0x8767ab5f34e5ULL, 0xeb3a9f019750ULL, 0x86d905447a35ULL,
    0xecc08321eb30ULL, 0x864b8a7de6d2ULL, 0xee44cd59ffabULL,
    0x85bf37612cefULL, 0xefc781043579ULL, 0x853408534086ULL,
    0xf148a170700aULL, 0x84a9f9c8084bULL, 0xf2c831e44116ULL,
    0x842108421085ULL, 0xf446359b1353ULL, 0x839930523fbfULL,
    0xf5c2afc65447ULL, 0x83126e978d50ULL, 0xf73da38d9d4aULL,
    0x828cbfbeb9a1ULL, 0xf8b7140edbb1ULL, 0x820820820821ULL,
    0xfa2f045e7832ULL, 0x81848da8faf1ULL, 0xfba577877d7dULL,
    0x810204081021ULL, 0xfd1a708bbe11ULL, 0x808080808081ULL,
    0xfe8df263f957ULL, 0x800000000000ULL, 0xffff00000000ULL,
};

// __LL_tbl as shipped (design notes, Appendix B).
inline constexpr uint64_t kLl[256] = {
    0x000000000000ULL, 0x0002e2a60a00ULL, 0x00070cb64ec5ULL,
    0x0009ef50ce67ULL, 0x000cd1e588fdULL, 0x000fb4747e9cULL,
    0x001296fdaf5eULL, 0x001579811b58ULL, 0x00185bfec2a1ULL,
    0x001b3e76a552ULL, 0x001e20e8c380ULL, 0x002103551d43ULL,
    0x0023e5bbb2b2ULL, 0x0026c81c83e4ULL, 0x0029aa7790f0ULL,
    0x002c8cccd9edULL, 0x002f6f1c5ef2ULL, 0x003251662017ULL,
    0x003533aa1d71ULL, 0x003815e8571aULL, 0x003af820cd26ULL,
    0x003dda537faeULL, 0x0040bc806ec8ULL, 0x00439ea79a8cULL,
    0x004680c90310ULL, 0x004962e4a86cULL, 0x004c44fa8ab6ULL,
    0x004f270aaa06ULL, 0x005209150672ULL, 0x0054eb19a013ULL,
    0x0057cd1876fdULL, 0x005aaf118b4aULL, 0x005d9104dd0fULL,
    0x006072f26c64ULL, 0x006354da3960ULL, 0x006636bc441aULL,
    0x006918988ca8ULL, 0x006bfa6f1322ULL, 0x006edc3fd79fULL,
    0x0071be0ada35ULL, 0x00749fd01afdULL, 0x0077818f9a0cULL,
    0x007a6349577aULL, 0x007d44fd535eULL, 0x008026ab8dceULL,
    0x0083085406e3ULL, 0x0085e9f6beb2ULL, 0x0088cb93b552ULL,
    0x008bad2aeadcULL, 0x008e8ebc5f65ULL, 0x009170481305ULL,
    0x009451ce05d3ULL, 0x0097334e37e5ULL, 0x009a14c8a953ULL,
    0x009cf63d5a33ULL, 0x009fd7ac4a9dULL, 0x00a2b07f3458ULL,
    0x00a59a78ea6aULL, 0x00a87bd699fbULL, 0x00ab5d2e8970ULL,
    0x00ae3e80b8e3ULL, 0x00b11fcd2869ULL, 0x00b40113d818ULL,
    0x00b6e254c80aULL, 0x00b9c38ff853ULL, 0x00bca4c5690cULL,
    0x00bf85f51a4aULL, 0x00c2671f0c26ULL, 0x00c548433eb6ULL,
    0x00c82961b211ULL, 0x00cb0a7a664dULL, 0x00cdeb8d5b82ULL,
    0x00d0cc9a91c8ULL, 0x00d3ada20933ULL, 0x00d68ea3c1ddULL,
    0x00d96f9fbbdbULL, 0x00dc5095f744ULL, 0x00df31867430ULL,
    0x00e2127132b5ULL, 0x00e4f35632eaULL, 0x00e7d43574e6ULL,
    0x00eab50ef8c1ULL, 0x00ed95e2be90ULL, 0x00f076b0c66cULL,
    0x00f35779106aULL, 0x00f6383b9ca2ULL, 0x00f918f86b2aULL,
    0x00fbf9af7c1aULL, 0x00feda60cf88ULL, 0x0101bb0c658cULL,
    0x01049bb23e3cULL, 0x01077c5259afULL, 0x010a5cecb7fcULL,
    0x010d3d81593aULL, 0x01101e103d7fULL, 0x0112fe9964e4ULL,
    0x0115df1ccf7eULL, 0x0118bf9a7d64ULL, 0x011ba0126eadULL,
    0x011e8084a371ULL, 0x012160f11bc6ULL, 0x01244157d7c3ULL,
    0x012721b8d77fULL, 0x012a02141b10ULL, 0x012ce269a28eULL,
    0x012fc2b96e0fULL, 0x0132a3037daaULL, 0x01358347d177ULL,
    0x01386386698cULL, 0x013b43bf45ffULL, 0x013e23f266e9ULL,
    0x0141041fcc5eULL, 0x0143e4477678ULL, 0x0146c469654bULL,
    0x0149a48598f0ULL, 0x014c849c117cULL, 0x014f64accf08ULL,
    0x015244b7d1a9ULL, 0x015524bd1976ULL, 0x015804bca687ULL,
    0x015ae4b678f2ULL, 0x015dc4aa90ceULL, 0x0160a498ee31ULL,
    0x016384819134ULL, 0x0166646479ecULL, 0x01694441a870ULL,
    0x016c24191cd7ULL, 0x016df6ca19bdULL, 0x0171e3b6d7aaULL,
    0x0174c37d1e44ULL, 0x0177a33dab1cULL, 0x017a82f87e49ULL,
    0x017d62ad97e2ULL, 0x0180425cf7feULL, 0x0182b07f3458ULL,
    0x018601aa8c19ULL, 0x0188e148c046ULL, 0x018bc0e13b52ULL,
    0x018ea073fd52ULL, 0x01918001065dULL, 0x01945f88568bULL,
    0x01973f09edf2ULL, 0x019a1e85ccaaULL, 0x019cfdfbf2c8ULL,
    0x019fdd6c6063ULL, 0x01a2bcd71593ULL, 0x01a59c3c126eULL,
    0x01a87b9b570bULL, 0x01ab5af4e380ULL, 0x01ae3a48b7e5ULL,
    0x01b11996d450ULL, 0x01b3f8df38d9ULL, 0x01b6d821e595ULL,
    0x01b9b75eda9bULL, 0x01bc96961803ULL, 0x01bf75c79de3ULL,
    0x01c254f36c51ULL, 0x01c534198365ULL, 0x01c81339e336ULL,
    0x01caf2548bd9ULL, 0x01cdd1697d67ULL, 0x01d0b078b7f5ULL,
    0x01d38f823b9aULL, 0x01d66e86086dULL, 0x01d94d841e86ULL,
    0x01dc2c7c7df9ULL, 0x01df0b6f26dfULL, 0x01e1ea5c194eULL,
    0x01e4c943555dULL, 0x01e7a824db23ULL, 0x01ea8700aab5ULL,
    0x01ed65d6c42bULL, 0x01f044a7279dULL, 0x01f32371d51fULL,
    0x01f60236cccaULL, 0x01f8e0f60eb3ULL, 0x01fbbfaf9af3ULL,
    0x01fe9e63719eULL, 0x02017d1192ccULL, 0x02045bb9fe94ULL,
    0x02073a5cb50dULL, 0x0209c06e6212ULL, 0x020cf791026aULL,
    0x020fd622997cULL, 0x0212b07f3458ULL, 0x02159334a8d8ULL,
    0x021871b52150ULL, 0x021b502fe517ULL, 0x021d6a73a78fULL,
    0x02210d144eeeULL, 0x0223eb7df52cULL, 0x0226c9e1e713ULL,
    0x0229a84024bbULL, 0x022c23679b4eULL, 0x022f64eb83a8ULL,
    0x02324338a51bULL, 0x0235218012a9ULL, 0x0237ffc1cc69ULL,
    0x023a2c3b0ea4ULL, 0x023d13ee805bULL, 0x024035e9221fULL,
    0x0243788faf25ULL, 0x024656b4e735ULL, 0x0247ed646bfeULL,
    0x024c12ee3d98ULL, 0x024ef1025c1aULL, 0x0251cf10c799ULL,
    0x025492644d65ULL, 0x02578b1c85eeULL, 0x025a6919d8f0ULL,
    0x025d13ee805bULL, 0x026025036716ULL, 0x026296453882ULL,
    0x0265e0d62b53ULL, 0x0268beb701f3ULL, 0x026b9c92265eULL,
    0x026d32f798a9ULL, 0x0271583758ebULL, 0x02743601673bULL,
    0x027713c5c3b0ULL, 0x0279f1846e5fULL, 0x027ccf3d6761ULL,
    0x027e6580aecbULL, 0x02828a9e44b3ULL, 0x028568462932ULL,
    0x0287bdbf5255ULL, 0x028b2384de4aULL, 0x028d13ee805bULL,
    0x029035e9221fULL, 0x029296453882ULL, 0x029699bdfb61ULL,
    0x029902a37aabULL, 0x029c54b864c9ULL, 0x029deabd1083ULL,
    0x02a20f9c0bb5ULL, 0x02a4c7605d61ULL, 0x02a7bdbf5255ULL,
    0x02a96056dafcULL, 0x02ac3daf14efULL, 0x02af1b019ecaULL,
    0x02b296453882ULL, 0x02b5d022d80fULL, 0x02b8fa471cb3ULL,
    0x02ba9012e713ULL, 0x02bd6d4901ccULL, 0x02c04a796cf6ULL,
    0x02c327a428a6ULL, 0x02c61a5e8f4cULL, 0x02c8e1e891f6ULL,
    0x02cbbf023fc2ULL, 0x02ce9c163e6eULL, 0x02d179248e13ULL,
    0x02d4562d2ec6ULL, 0x02d73330209dULL, 0x02da102d63b0ULL,
    0x02dced24f814ULL,
};
// clang-format on

// crush_ln(u) for u in 0..0xFFFF (higher bits are ignored): about
// 2^44 log2(u + 1); CrushLn(0xFFFF) = 0xFFFFF0000000 < 2^48.
constexpr uint64_t CrushLn(uint32_t u) {
  uint32_t x = (u & 0xFFFF) + 1;  // 1 .. 0x10000
  int e = 15;
  if ((x & 0x18000) == 0) {
    // Normalise so that bit 15 is set: shift by 15 - (index of the top bit).
    const int shift = std::countl_zero(x) - 16;
    x <<= shift;
    e -= shift;
  }
  const uint32_t i = (x >> 8) << 1;  // even, 256 .. 512
  const uint64_t rh = kRhLh[i - 256];
  const uint64_t lh = kRhLh[i - 255];
  const uint64_t y = (uint64_t{x} * rh) >> 48;
  return (static_cast<uint64_t>(e) << 44) + ((lh + kLl[y & 0xFF]) >> 4);
}

// ceph_str_hash_rjenkins: lookup2 with initial value 0, bytes unsigned.
constexpr uint32_t StrHashRjenkins(std::string_view s) {
  auto byte = [&](size_t i) {
    return static_cast<uint32_t>(static_cast<unsigned char>(s[i]));
  };
  auto le32 = [&](size_t p) {
    return byte(p) | byte(p + 1) << 8 | byte(p + 2) << 16 | byte(p + 3) << 24;
  };
  uint32_t a = 0x9E3779B9u, b = 0x9E3779B9u, c = 0;
  size_t p = 0, n = s.size();
  while (n >= 12) {
    a += le32(p);
    b += le32(p + 4);
    c += le32(p + 8);
    Mix(a, b, c);
    p += 12;
    n -= 12;
  }
  c += static_cast<uint32_t>(s.size());
  for (size_t j = 0; j < n; ++j) {
    const uint32_t t = byte(p + j);
    if (j < 4) {
      a += t << (8 * j);
    } else if (j < 8) {
      b += t << (8 * (j - 4));
    } else {
      c += t << (8 * (j - 7));  // bytes 8..10: bits 8..31 (bits 0..7: length)
    }
  }
  Mix(a, b, c);
  return c;
}

// ceph_str_hash_linux: h = (h + (t << 4) + (t >> 4)) * 11 per byte.
constexpr uint32_t StrHashLinux(std::string_view s) {
  uint32_t h = 0;
  for (const char ch : s) {
    const uint32_t t = static_cast<unsigned char>(ch);
    h = (h + (t << 4) + (t >> 4)) * 11;
  }
  return h;
}

// ceph_stable_mod.
constexpr uint32_t StableMod(uint32_t x, uint32_t b, uint32_t bmask) {
  return (x & bmask) < b ? (x & bmask) : (x & (bmask >> 1));
}

// 2^bits(n - 1) - 1, the mask of pg_num / pgp_num n (osd_types.cc's
// calc_pg_masks): 100 -> 127, 128 -> 127, 64 -> 63, 1 -> 0.
constexpr uint32_t PgMask(uint32_t n) {
  const uint32_t bits = n <= 1 ? 0 : 32 - std::countl_zero(n - 1);
  return bits == 32 ? 0xFFFFFFFFu : (uint32_t{1} << bits) - 1;
}

}  // namespace chbench::crush

#endif  // CHBENCH_ALGORITHMS_CRUSH_CRUSH_HASH_H_
