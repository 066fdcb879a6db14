#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes validation/public/measurements/*.jsonl from published rows copied verbatim below.

Each row is the published line exactly as it appears in the cited file (repository, commit,
path, line). Only the arithmetic written in each record's `derivation` turns the published
number into a time; nothing is rounded, edited or extrapolated. Run from anywhere:
    python3 validation/public/make_public.py
The manifests next to the kernels list one variant per point (see README.md)."""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
COPIED = "2026-11-23"  # the day the rows were copied; the sources do not date their runs

GB = "te42kyfo/gpu-benches"
MIX = "ekondis/mixbench"

# --- gpu-benches gpu-roofline: float, BLOCK = 256, M = 4000, blocks = SMs x 8 ------------------
# Rows of device 0 with its <= 128 (both sides of the ridge point).
ROOFLINE = [
    ("a100", "NVIDIA A100 40GB (file alex_a100_40.txt; 864 blocks = 108 SMs x 8)",
     "gpu-roofline/alex_a100_40.txt", "e4e93a37819713515af27e0ffd8ae379df9a115b", 864,
     # (line, published line)
     [(2, "0 864 blocks     0 its      0.250 Fl/B       1372 GB/s       343 GF/s   1410 Mhz   227 W   47°C"),
      (11, "0 864 blocks     1 its      0.500 Fl/B       1368 GB/s       684 GF/s   1410 Mhz   230 W   48°C"),
      (20, "0 864 blocks     4 its      1.250 Fl/B       1363 GB/s      1704 GF/s   1410 Mhz   236 W   48°C"),
      (29, "0 864 blocks    24 its      6.250 Fl/B       1322 GB/s      8263 GF/s   1410 Mhz   262 W   50°C"),
      (38, "0 864 blocks    40 its      10.250 Fl/B       1284 GB/s     13166 GF/s   1410 Mhz   284 W   52°C"),
      (47, "0 864 blocks    48 its      12.250 Fl/B       1240 GB/s     15191 GF/s   1410 Mhz   292 W   54°C"),
      (56, "0 864 blocks    56 its      14.250 Fl/B       1150 GB/s     16384 GF/s   1410 Mhz   291 W   55°C"),
      (65, "0 864 blocks    72 its      18.250 Fl/B        936 GB/s     17074 GF/s   1410 Mhz   258 W   53°C"),
      (74, "0 864 blocks    80 its      20.250 Fl/B        850 GB/s     17204 GF/s   1410 Mhz   250 W   54°C"),
      (83, "0 864 blocks    96 its      24.250 Fl/B        724 GB/s     17554 GF/s   1410 Mhz   237 W   53°C"),
      (92, "0 864 blocks   104 its      26.250 Fl/B        670 GB/s     17585 GF/s   1410 Mhz   232 W   53°C"),
      (101, "0 864 blocks   120 its      30.250 Fl/B        593 GB/s     17938 GF/s   1410 Mhz   224 W   53°C"),
      (110, "0 864 blocks   128 its      32.250 Fl/B        554 GB/s     17863 GF/s   1410 Mhz   224 W   54°C")]),
    ("h200", "NVIDIA H200 (file h200.txt; 1056 blocks = 132 SMs x 8)",
     "gpu-roofline/h200.txt", "e4e93a37819713515af27e0ffd8ae379df9a115b", 1056,
     [(67, "0 1056 blocks     0 its      0.250 Fl/B       3759 GB/s       940 GF/s   1980 Mhz   572 W   57°C"),
      (69, "0 1056 blocks     1 its      0.500 Fl/B       3780 GB/s      1890 GF/s   1980 Mhz   578 W   58°C"),
      (71, "0 1056 blocks     2 its      0.750 Fl/B       3763 GB/s      2822 GF/s   1980 Mhz   583 W   58°C"),
      (73, "0 1056 blocks     4 its      1.250 Fl/B       3779 GB/s      4724 GF/s   1980 Mhz   597 W   59°C"),
      (75, "0 1056 blocks     8 its      2.250 Fl/B       3760 GB/s      8459 GF/s   1980 Mhz   615 W   60°C"),
      (77, "0 1056 blocks    16 its      4.250 Fl/B       3735 GB/s     15874 GF/s   1980 Mhz   650 W   62°C"),
      (79, "0 1056 blocks    24 its      6.250 Fl/B       3629 GB/s     22683 GF/s   1980 Mhz   675 W   63°C"),
      (81, "0 1056 blocks    32 its      8.250 Fl/B       3232 GB/s     26667 GF/s   1980 Mhz   653 W   64°C"),
      (83, "0 1056 blocks    40 its      10.250 Fl/B       2690 GB/s     27571 GF/s   1980 Mhz   595 W   63°C"),
      (85, "0 1056 blocks    48 its      12.250 Fl/B       2323 GB/s     28456 GF/s   1980 Mhz   558 W   63°C"),
      (87, "0 1056 blocks    56 its      14.250 Fl/B       2029 GB/s     28920 GF/s   1980 Mhz   526 W   63°C"),
      (89, "0 1056 blocks    64 its      16.250 Fl/B       2204 GB/s     35812 GF/s   1980 Mhz   583 W   65°C"),
      (91, "0 1056 blocks    72 its      18.250 Fl/B       2002 GB/s     36541 GF/s   1980 Mhz   562 W   65°C"),
      (93, "0 1056 blocks    80 its      20.250 Fl/B       1838 GB/s     37227 GF/s   1980 Mhz   547 W   65°C"),
      (95, "0 1056 blocks    88 its      22.250 Fl/B       1700 GB/s     37819 GF/s   1980 Mhz   531 W   65°C"),
      (97, "0 1056 blocks    96 its      24.250 Fl/B       1578 GB/s     38276 GF/s   1980 Mhz   519 W   65°C"),
      (99, "0 1056 blocks   104 its      26.250 Fl/B       1475 GB/s     38727 GF/s   1980 Mhz   511 W   65°C"),
      (101, "0 1056 blocks   112 its      28.250 Fl/B       1365 GB/s     38569 GF/s   1980 Mhz   501 W   65°C"),
      (103, "0 1056 blocks   120 its      30.250 Fl/B       1303 GB/s     39404 GF/s   1980 Mhz   495 W   65°C"),
      (105, "0 1056 blocks   128 its      32.250 Fl/B       1213 GB/s     39109 GF/s   1980 Mhz   491 W   65°C")]),
]
ROOF_RE = re.compile(r"^0 (\d+) blocks\s+(\d+) its\s+([\d.]+) Fl/B\s+(\d+) GB/s\s+(\d+) GF/s\s+(\d+) Mhz")

# --- gpu-benches cuda-stream: double, n = 128 Mi + 2, the blockSize 1024 row ------------------
STREAM_N = 128 * 1024 * 1024 + 2
STREAM_KERNELS = [("init", 1), ("read", 1), ("scale", 2), ("triad", 3), ("stencil3", 2),
                  ("stencil5", 2)]  # (variant, streams counted by main.cu) in column order
STREAM = [
    ("h100-pcie", "NVIDIA H100 PCIe (file h100_pcie.txt; 114 SMs from the threads column)",
     "cuda-stream/h100_pcie.txt", "cdcc732d189f02cb90cf3d04cd20ea8d2c5fbd3f", 33,
     "     1024      116736  100.0 %  |  GB/s:        2016       1942       1704       1832       1686       1683"),
    ("a100-80", "NVIDIA A100 80GB (file a100_80.txt; 108 SMs from the threads column)",
     "cuda-stream/a100_80.txt", "cdcc732d189f02cb90cf3d04cd20ea8d2c5fbd3f", 33,
     "     1024      110592  100.0 %  |  GB/s:        1880       1769       1732       1759       1696       1680"),
]

# --- gpu-benches gpu-stream: the same kernels, 2 blocks per SM forced, blockSize 32 ... 1024 --------
# main.cu (read at a7dc559 and fd7091f) launches grid (128 Mi + 2) / blockSize + 1 over doubles with
# a shared-memory carveout that leaves room for exactly two blocks of its 6 KiB spoiler per SM (at
# a7dc559 a fixed 9 %, checked against the occupancy query, which prints "!" on a mismatch: none
# in these files; at fd7091f, the H200's, the smallest carveout from 0 % up that fits two). Rows:
# blockSize, SMs x blockSize, occupancy %, then GB/s of init, read, scale, triad and two stencils
# (1pt/3pt in a100_40.txt, an older program: left out), streams 1, 1, 2, 3 as main.cu counts them.
# Left out as in-sample: the cells the presets calibrate on (block_overhead from row 64 init; the
# DRAM write, read and mixed bandwidths from row 1024 init, read, scale).
SWEEP_COPIED = "2026-12-01"
SWEEP_KERNELS = [("init", 1), ("read", 1), ("scale", 2), ("triad", 3)]
SWEEP_CALIBRATION = {(64, "init"), (1024, "init"), (1024, "read"), (1024, "scale")}
SWEEP = [
    ("a100", "NVIDIA A100 40GB (file gpu-stream/a100_40.txt; 108 SMs from the threads column)",
     "gpu-stream/a100_40.txt", "a7dc559cc5a1d09e62b6b0fbb99ee165039acba4", 108, [
         (2, "       32        3456      3 %  |  GB/s:         159         81        151        210        142        139"),
         (3, "       64        6912    6.2 %  |  GB/s:         407        158        291        403        269        264"),
         (5, "      128       13824   12.5 %  |  GB/s:         788        304        548        743        503        495"),
         (9, "      256       27648   25.0 %  |  GB/s:        1473        579        954       1231        901        879"),
         (13, "      384       41472   37.5 %  |  GB/s:        1505        823       1245       1346       1205       1176"),
         (17, "      512       55296   50.0 %  |  GB/s:        1503       1042       1338       1359       1326       1320"),
         (25, "      768       82944   75.0 %  |  GB/s:        1502       1341       1364       1367       1354       1350"),
         (33, "     1024      110592  100.0 %  |  GB/s:        1503       1490       1381       1360       1372       1368")]),
    ("v100", "Tesla V100 (file gpu-stream/v100.txt; 80 SMs from the threads column)",
     "gpu-stream/v100.txt", "a7dc559cc5a1d09e62b6b0fbb99ee165039acba4", 80, [
         (2, "       32        2560      3 %  |  GB/s:         153         72        128        180        122        117"),
         (3, "       64        5120    6.2 %  |  GB/s:         306        139        244        323        230        224"),
         (5, "      128       10240   12.5 %  |  GB/s:         595        262        423        545        403        394"),
         (9, "      256       20480   25.0 %  |  GB/s:         895        490        673        765        645        633"),
         (13, "      384       30720   37.5 %  |  GB/s:         895        646        764        795        752        744"),
         (17, "      512       40960   50.0 %  |  GB/s:         895        746        784        800        777        774"),
         (25, "      768       61440   75.0 %  |  GB/s:         895        822        798        807        794        792"),
         (33, "     1024       81920  100.0 %  |  GB/s:         895        866        802        814        798        795")]),
    ("h200", "NVIDIA H200 (file gpu-stream/h200.txt; 132 SMs from the threads column)",
     "gpu-stream/h200.txt", "fd7091fbb51772fb4401f4a14c80008424fd4ac4", 132, [
         (2, "       32        4224      3 %  |  GB/s:         297        123        240        334        222        218"),
         (3, "       64        8448    6.2 %  |  GB/s:         590        244        463        638        425        418"),
         (5, "      128       16896   12.5 %  |  GB/s:        1163        485        852       1129        779        771"),
         (9, "      256       33792   25.0 %  |  GB/s:        2196        935       1395       1905       1338       1315"),
         (13, "      384       50688   37.5 %  |  GB/s:        3016       1314       1864       2503       1799       1771"),
         (17, "      512       67584   50.0 %  |  GB/s:        3670       1707       2263       2919       2181       2150"),
         (25, "      768      101376   75.0 %  |  GB/s:        3891       2297       2844       3333       2785       2753"),
         (33, "     1024      135168  100.0 %  |  GB/s:        3884       2756       3165       3534       3128       3110")]),
]

# --- gpu-benches gpu-small-kernels: SCALE over doubles, back-to-back launches, grid n / BLOCK + 1 --
# h200.txt at commit c35574e, where main.cu sweeps BLOCK = 32, 64, ..., 1024 (six columns, GB/s of
# one launch = 2 x n x 8 B / time) and n in 6 % steps (the line number follows from the step).
SMALL_PATH = "gpu-small-kernels/h200.txt"
SMALL_COMMIT = "c35574e6eaed6c619220d60a2db3b6e3c39297bf"
SMALL_COPIED = "2026-11-29"
SMALL_DEVICE = "NVIDIA H200 (file gpu-small-kernels/h200.txt)"
SMALL_BLOCKS = [32, 64, 128, 256, 512, 1024]
SMALL = [(56, "100784  1574kB    381    485    566    612    608    603  "),
         (96, "1036569  16196kB    759   1366   2284   3169   3191   3164  "),
         (120, "4196976  65577kB    821   1578   2890   2959   2889   2763  "),
         (145, "18012850  281450kB    844   1672   3234   3282   3217   3085  ")]

# --- gpu-benches gpu-l2-cache: 100,000 blocks of 1024 threads over R chunks of 512 KiB ----------
# h200.txt at commit 3088b33. The kernel is main.cu's at that commit (N = 64: the printed 512 kB
# per block, 32 pairs of doubles); the block count is 100,000, which the file's own exec-time
# column shows (4 ms at 13526.6 GB/s for 1536 kB; main.cu's 200,000 would print 8 ms). One
# launch takes 100,000 x 524,288 B / (GB/s). Working sets from 1.5 MiB to 4.7 GiB.
L2_PATH = "gpu-l2-cache/h200.txt"
L2_COMMIT = "3088b3337998d1d9fff53c7af665f587af83a178"
L2_COPIED = "2026-11-29"
L2_DEVICE = "NVIDIA H200 (file gpu-l2-cache/h200.txt)"
L2_BLOCKS = 100000
L2_ROWS = [(2, "       512 kB      1536 kB         4ms       1.0%   13526.6 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (19, "       512 kB     10240 kB         5ms       0.1%   10084.5 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (32, "       512 kB     30720 kB         5ms       0.9%    9769.1 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (36, "       512 kB     44032 kB         6ms       1.1%    9105.3 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (37, "       512 kB     48128 kB         7ms       0.6%    7542.5 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (39, "       512 kB     57856 kB        10ms       0.3%    5053.8 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (45, "       512 kB    100352 kB        13ms       0.0%    3903.5 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s "),
           (86, "       512 kB   4881920 kB        13ms       0.1%    3888.2 GB/s        0 GB/s      0 GB/s      0 GB/s      0 GB/s ")]

# --- gpu-benches gpu-strides: one block of 1024 threads re-reading L1, cycles per warp load -------
# h200.txt at commit 0a45416 (copied 2026-12-01). main.cu (read at 15f814a, the stored version:
# the same kernels, a wider stride loop) times one launch of N = 18 x 64 x 1024 loads per thread
# and prints cycles = min time x clock / (1024 x N / 32 warp loads) and B/cycle = 1024 x N x
# sizeof / (min time x clock); columns: type, kernel, arg, arg (pitch for the block kernel),
# cycles, B/cycle, three counters per warp load (L1 data-pipe wavefronts, tag-stage output
# wavefronts, L2 sectors). One launch takes cycles x 1024 x N / 32 / clock, clock 1980 MHz
# (the file's first line).
STRIDES_PATH = "gpu-strides/h200.txt"
STRIDES_COMMIT = "0a45416b2118f4f355cef2af0daa2ec38fe25513"
STRIDES_COPIED = "2026-12-01"
STRIDES_DEVICE = "NVIDIA H200 (file gpu-strides/h200.txt, 1980 MHz)"
STRIDES_N = 18 * 64 * 1024
STRIDES_MHZ = 1980
STRIDES_ROWS = [
    (2, "float stride     0    0    1.01    126   1.00   1.00   0.03 "),
    (3, "float stride     1    1    1.01    126   1.00   1.00   0.04 "),
    (4, "float stride     2    2    2.01     64   2.00   1.22   0.02 "),
    (5, "float stride     3    3    1.63     79   1.00   1.62   0.04 "),
    (6, "float stride     4    4    4.01   32.0   4.00   1.84   0.05 "),
    (7, "float stride     5    5    2.00     64   1.00   2.00   0.10 "),
    (8, "float stride     6    6    2.32     55   2.00   2.31   0.04 "),
    (9, "float stride     7    7    2.41     53   1.00   2.41   0.03 "),
    (10, "float stride     8    8     8.0   16.0    8.0   2.72   0.11 "),
    (11, "float stride     9    9    3.00   42.6   1.00   3.00   0.04 "),
    (12, "float stride    10   10    3.16   40.5   2.00   3.16   0.04 "),
    (13, "float stride    11   11    3.41   37.5   1.00   3.41   0.08 "),
    (14, "float stride    12   12    4.01   32.0   4.00   3.62   0.05 "),
    (15, "float stride    13   13    4.10   31.2   1.00   4.09   0.03 "),
    (16, "float stride    14   14    4.25   30.1   2.00   4.25   0.04 "),
    (17, "float stride    15   15    4.60   27.8   1.00   4.59   0.05 "),
    (19, "double stride     0    0    2.01    128   2.00   1.00   0.04 "),
    (20, "double stride     1    1    2.01    128   2.00   1.19   0.03 "),
    (21, "double stride     2    2    4.01     64   4.00   1.75   0.08 "),
    (22, "double stride     3    3    2.32    110   2.00   2.31   0.05 "),
    (23, "double stride     4    4     8.0   32.0    8.0   2.78   0.06 "),
    (24, "double stride     5    5    3.16     81   2.00   3.16   0.05 "),
    (25, "double stride     6    6    4.01     64   4.00   3.72   0.03 "),
    (26, "double stride     7    7    4.32     59   2.00   4.31   0.04 "),
    (27, "double stride     8    8    16.0   16.0   16.0   4.66   0.13 "),
    (28, "double stride     9    9     5.3   48.7   2.00    5.2   0.05 "),
    (29, "double stride    10   10     5.5   46.8   4.00    5.5   0.18 "),
    (30, "double stride    11   11     6.0   42.6   2.00    6.0   0.04 "),
    (31, "double stride    12   12     8.0   32.0    8.0    6.6   0.09 "),
    (32, "double stride    13   13     7.0   36.5   2.00    7.0   0.06 "),
    (33, "double stride    14   14     7.0   36.5   4.00    7.0   0.05 "),
    (34, "double stride    15   15     8.0   32.0   2.00    8.0   0.05 "),
    (36, "float block     1  4098     9.3   13.8   2.00    9.2   0.08 "),
    (37, "float block     2  4098    4.82   26.6   1.00   4.81   0.09 "),
    (38, "float block     4  4098    3.00   42.6   2.00   3.00   0.03 "),
    (39, "float block     8  4098    4.01   32.0   4.00   2.12   0.05 "),
    (40, "float block    16  4098    2.01     64   2.00   1.47   0.04 "),
    (41, "float block    32  4098    1.02    125   1.00   1.00   0.04 "),
    (42, "float block    64  4098    1.02    126   1.00   1.00   0.05 "),
    (44, "double block     1  4098     9.0   28.4   4.00    9.0   0.07 "),
    (45, "double block     2  4098     5.3   48.7   2.00    5.2   0.07 "),
    (46, "double block     4  4098    4.01     64   4.00   3.25   0.05 "),
    (47, "double block     8  4098    4.01     64   4.00   2.27   0.03 "),
    (48, "double block    16  4098    2.01    128   2.00   1.38   0.04 "),
    (49, "double block    32  4098    2.01    128   2.00   1.00   0.02 "),
    (50, "double block    64  4098    2.01    128   2.00   1.00   0.06 "),
]

# --- mixbench: Tesla K20c, single precision, 4096 blocks of 256, COMP 8192 ----------------------
MIX_PATH = "results/CUDA/TeslaK20c.txt"
MIX_COMMIT = "e4a8afb09ec58cc901cbaea4092dc07ec99d3e6c"
MIX_ROWS = """       0/32,       253.77,    0.00, 135.40,  510.06,    0.00, 134.73,  252.86,    0.00, 135.88
       1/31,       244.99,    8.77, 135.87,  494.93,    4.34, 134.51,  244.86,    8.77, 135.94
       2/30,       233.67,   18.38, 137.85,  478.54,    8.98, 134.63,  234.28,   18.33, 137.49
       3/29,       228.18,   28.23, 136.47,  462.03,   13.94, 134.79,  228.12,   28.24, 136.50
       4/28,       219.72,   39.09, 136.83,  446.14,   19.25, 134.78,  219.71,   39.10, 136.84
       5/27,       207.22,   51.82, 139.90,  429.36,   25.01, 135.04,  207.53,   51.74, 139.70
       6/26,       198.27,   64.99, 140.81,  413.36,   31.17, 135.08,  198.70,   64.84, 140.50
       7/25,       186.45,   80.62, 143.97,  396.41,   37.92, 135.43,  187.80,   80.05, 142.94
       8/24,       173.62,   98.95, 148.43,  380.90,   45.10, 135.31,  175.50,   97.89, 146.84
       9/23,       161.84,  119.42, 152.59,  363.79,   53.13, 135.77,  164.83,  117.26, 149.83
      10/22,       152.30,  141.00, 155.10,  347.91,   61.73, 135.80,  152.64,  140.69, 154.76
      11/21,       141.20,  167.29, 159.69,  330.41,   71.49, 136.49,  144.12,  163.90, 156.45
      12/20,       130.92,  196.84, 164.03,  314.92,   81.83, 136.38,   75.81,  339.94, 283.28
      13/19,       119.22,  234.17, 171.13,  299.37,   93.25, 136.29,   69.26,  403.10, 294.57
      14/18,       110.04,  273.21, 175.63,  282.20,  106.54, 136.98,   72.88,  412.54, 265.20
      15/17,        93.09,  346.04, 196.09,  259.67,  124.05, 140.59,   78.61,  409.76, 232.19
      16/16,       126.91,  270.75, 135.38,  255.64,  134.41, 134.41,  126.82,  270.94, 135.47
      17/15,       114.72,  318.23, 140.40,  231.30,  157.84, 139.27,  109.53,  333.31, 147.05
      18/14,       110.31,  350.41, 136.27,  222.96,  173.37, 134.84,   88.75,  435.53, 169.37
      19/13,        96.93,  420.94, 144.01,  198.60,  205.45, 140.57,   91.21,  447.33, 153.03
      20/12,        90.03,  477.05, 143.12,  190.25,  225.76, 135.46,   94.42,  454.86, 136.46
      21/11,        82.73,  545.10, 142.76,  167.13,  269.84, 141.34,   94.40,  477.71, 125.11
      22/10,        78.95,  598.40, 136.00,  159.85,  295.56, 134.35,   99.58,  474.46, 107.83
      23/ 9,        66.27,  745.29, 145.82,  133.55,  369.83, 144.72,  104.41,  473.08,  92.56
      24/ 8,        63.50,  811.61, 135.27,  128.06,  402.48, 134.16,  107.34,  480.16,  80.03
      25/ 7,        50.15, 1070.46, 149.86,  101.01,  531.49, 148.82,  110.89,  484.17,  67.78
      26/ 6,        47.53, 1174.74, 135.55,   95.87,  582.41, 134.40,  116.34,  479.92,  55.38
      27/ 5,        33.56, 1727.68, 159.97,   68.67,  844.31, 156.35,  114.77,  505.18,  46.78
      28/ 4,        31.75, 1893.68, 135.26,   64.13,  937.56, 133.94,  118.11,  509.08,  36.36
      29/ 3,        24.73, 2518.50, 130.27,   59.76, 1042.04, 107.80,  116.63,  533.96,  27.62
      30/ 2,        24.40, 2640.24,  88.01,   59.70, 1079.08,  71.94,  118.12,  545.40,  18.18
      31/ 1,        22.85, 2913.27,  46.99,   58.76, 1133.03,  36.55,  115.99,  573.93,   9.26
      32/ 0,        22.58, 3043.18,   0.00,   59.45, 1155.96,   0.00,  117.46,  585.02,   0.00""".split("\n")
MIX_FIRST_LINE = 23  # line of "0/32" in the file

# --- reguly/laplace_vector: nsys tables in README.md, float and float4, 8190 x 8190, 32 x 8 ------
# (The half-precision tables are left out: manifests have no f16 buffer type.)
LAP = "reguly/laplace_vector"
LAP_PATH = "README.md"
LAP_COMMIT = "616aed53bffab6c72561a1d9877be8d6398bd220"
LAPLACE = [
    ("a100", "NVIDIA A100 PCIe (the README says 'A100-4GB PCI-e'; scored with the a100 preset)",
     [(7, "stencil", "| 51.0 | 919,138 | 2 | 459,569.0 | 459,569.0 | 458,721 | 460,417 | 1,199.3 | `stencil(int, int, float *, float *)` |"),
      (8, "copy", "| 49.0 | 881,603 | 2 | 440,801.5 | 440,801.5 | 440,737 | 440,866 | 91.2 | `copy(int, int, float *, float *)` |"),
      (21, "copy_vec", "| 50.2 | 768,098 | 2 | 384,049.0 | 384,049.0 | 383,937 | 384,161 | 158.4 | `copy_vector(int, int, float4 *, float4 *)` |"),
      (22, "stencil_vec", "| 49.8 | 761,378 | 2 | 380,689.0 | 380,689.0 | 374,369 | 387,009 | 8,937.8 | `stencil_vector(int, int, float4 *, float4 *)` |")]),
    ("h100-pcie", "NVIDIA H100 80GB PCIe (README section 'H100-80GB PCI-e')",
     [(37, "stencil", "| 51.5 | 730,788 | 2 | 365,394.0 | 365,394.0 | 362,626 | 368,162 | 3,914.5 | `stencil(int, int, float *, float *)` |"),
      (38, "copy", "| 48.5 | 689,253 | 2 | 344,626.5 | 344,626.5 | 344,386 | 344,867 | 340.1 | `copy(int, int, float *, float *)` |"),
      (51, "copy_vec", "| 50.8 | 589,124 | 2 | 294,562.0 | 294,562.0 | 294,338 | 294,786 | 316.8 | `copy_vector(int, int, float4 *, float4 *)` |"),
      (52, "stencil_vec", "| 49.2 | 571,363 | 2 | 285,681.5 | 285,681.5 | 277,025 | 294,338 | 12,242.1 | `stencil_vector(int, int, float4 *, float4 *)` |")]),
]

# --- ahmadsharif1/cuda_study, README.md section 3b (copy_bw.cu, float4, UNROLL = 4) -----------
# Copy of 256 MiB, printed as 2 x 256 MiB / time; the README rounds the program's output.
CS = "ahmadsharif1/cuda_study"
CS_PATH = "README.md"
CS_COMMIT = "0dc3e53e303241dce5cf2f8c185c07628240f714"
CS_COPIED = "2026-11-30"
CS_COPIED_MM = "2026-12-01"
CS_DEVICE = "NVIDIA H100 SXM5 80 GB HBM3 (README: observed boost clock 1.98 GHz, CUDA 12.8)"
CS_BYTES = 256 * 1024 * 1024
CS_ROWS = [(131, "b1x1024", "| 1 SM (1024 threads), float4, UNROLL=4 | 66.67 GB/s | 3.33% |"),
           (132, "b32", "| 32 SMs | 1,183 GB/s | 59.2% |"),
           (133, "b64", "| 64 SMs | 1,722 GB/s | 86.1% |"),
           (134, "b132", "| **132 SMs (all)** | **1,992 GB/s** | **99.6%** |"),
           (135, "b528", "| 528 blocks (4× SMs) | 2,034 GB/s | 101.7% |")]

# --- ahmadsharif1/cuda_study, matmul/results/benchmark.out.txt: the five FP32 kernels ----------
# (matmul/matmul.cu as at commit 4247f2d: naive 16 x 16; 32 x 32 shared tiles; 128 x 128 register
# tiles, plain, with float4 loads, double-buffered), A 4096 x 16384 times B 16384 x 8192, the
# average of 100 back-to-back launches timed with events; same card as the README.
CS_MM_PATH = "matmul/results/benchmark.out.txt"
CS_MM_COMMIT = "be5cef0477225f5a3447d66b55f6e6d0e4c44720"
CS_MM_FLOPS = 2 * 4096 * 16384 * 8192
# (line of the time, variant, the time line, the next line: its TFLOPS)
CS_MM_ROWS = [(8, "naive", "  Avg Time     : 296.2365 ms", "  Performance  : 3.71 TFLOPS"),
              (16, "tiled_smem", "  Avg Time     : 176.7880 ms", "  Performance  : 6.22 TFLOPS"),
              (24, "reg_tile", "  Avg Time     : 67.7292 ms", "  Performance  : 16.23 TFLOPS"),
              (32, "vec_load", "  Avg Time     : 50.2735 ms", "  Performance  : 21.87 TFLOPS"),
              (40, "dbl_buf", "  Avg Time     : 73.5290 ms", "  Performance  : 14.95 TFLOPS")]

# README section 3c (micro_benchmarks/l2_bw.cu at commit 03500bd: copy_l2<8>, float, __ldcg /
# __stcg, blocks of 256 threads), 100 launches after 20 warm-up ones, printed as 2 x bytes / time:
# 16 MiB (L2-resident) on 1 ... 528 blocks, and 256 MiB on 528 blocks (the HBM row).
CS_L2_BYTES = 16 * 1024 * 1024
CS_L2_ROWS = [(152, "l2_bw", "b1", CS_L2_BYTES, "| 1 SM | 16.8 GB/s |"),
              (153, "l2_bw", "b16", CS_L2_BYTES, "| 16 SMs | 323 GB/s |"),
              (154, "l2_bw", "b64", CS_L2_BYTES, "| 64 SMs | 2,252 GB/s |"),
              (155, "l2_bw", "b132", CS_L2_BYTES, "| 132 SMs (all) | 3,223 GB/s |"),
              (156, "l2_bw", "b528", CS_L2_BYTES, "| **528 blocks (4× SMs)** | **3,574 GB/s (3.6 TB/s)** |"),
              (157, "l2_bw_hbm", "b528", 256 * 1024 * 1024, "| HBM (256 MB, doesn't fit L2) | 887 GB/s |")]
CS_L2_RATIO = (158, "| **L2 / HBM ratio** | **4.0×** |")

# README section 4 (transpose/transpose.cu): the two plain CUDA kernels of 32768 x 32768 floats,
# 100 launches timed with events; Bandwidth = 2 x 4 GiB / time.
CS_TR_BYTES = 32768 * 32768 * 4
CS_TR_ROWS = [(182, "basic", "| Basic | 1,224 | 7.02 | 61% |"),
              (183, "vectorized", "| Vectorized | 1,904 | 4.51 | 95% |")]


# --- simveit/effective_reduction, README.md "Performance Comparison" -----------------------------
# The sum of N = 2^30 ints (kernel_<k>.cu: 512 threads per block, 12 ints per thread from kernel_3
# on), 1000 back-to-back launches (with a 4-B cudaMemset before each where the kernel has one, and
# both passes of kernel_0 and kernel_1) timed with events; printed: N x 4 B / time per launch.
# kernel_5 (NVIDIA CUB) is left out: its kernels are the library's, not the repository's.
SV = "simveit/effective_reduction"
SV_PATH = "README.md"
SV_COMMIT = "0d059e931ce00828299c5eaf42d4df71f5fcef57"
SV_COPIED = "2026-12-02"
SV_DEVICE = "NVIDIA H100 (README: 3.3 TB/s maximum bandwidth, so the SXM5 HBM3 card; inferred)"
SV_BYTES = 2**30 * 4
# (line, experiment, variant, published line)
SV_ROWS = [(14, "reduce_two_pass", "k0", "| kernel_0 | 639.37 | 19.37% | Custom |"),
           (15, "reduce_two_pass", "k1", "| kernel_1 | 661.16 | 20.04% | Custom |"),
           (16, "reduce_one_pass", "k2", "| kernel_2 | 882.823 | 26.75% | Custom |"),
           (17, "reduce_one_pass", "k3", "| kernel_3 | 3226.86 | 97.78% | Custom |"),
           (18, "reduce_one_pass", "k4", "| kernel_4 | 3229.98 | 97.88% | Custom |"),
           (20, "reduce_one_pass", "k6", "| kernel_6 | 3229.01 | 97.85% | Custom |"),
           (21, "reduce_one_pass", "k7", "| kernel_7 | 3229.62 | 97.87% | Custom |"),
           (22, "reduce_one_pass", "k8", "| kernel_8 | 3231.03 | 97.91% | Custom |"),
           (23, "reduce_one_pass", "k9", "| kernel_9 | 3231.54 | 97.93% | Custom |")]

# --- yencal/gpu-matrix-transpose, as its author's blog post publishes it ----------------------------
# yencal/yencal.github.io _posts/2025-12-24-gpu-matrix-transpose-optimization.md ("The benchmark
# code is available in this repository": yencal/gpu-matrix-transpose): a 32768 x 32768 float transpose,
# 10 warm-up and 100 timed back-to-back launches over the same buffers (main.cu at 004e486),
# Time(ms) per launch and BW = 2 x 4 GiB / time. Kernels: transpose_kernels.cuh at 7f0dec7, and
# TransposeVec4Coarsen as the post lists it. The table's labels are the post's; its block shapes
# give each row's kernel (Coarsen<k> = TILE / BLOCK_ROWS rows per thread). Left out: the six
# float2-coarsened rows (Vec2Coarsen2/4/8, Vec2_T64*): that kernel's source is published nowhere.
YT = "yencal/yencal.github.io"
YT_PATH = "_posts/2025-12-24-gpu-matrix-transpose-optimization.md"
YT_COMMIT = "41c2a05f7fc12e4ba432d8fd7f7fde0ab3a4528d"
YT_COPIED = "2026-12-02"
YT_DEVICE = "NVIDIA H100 (post: \"H100\", theoretical peak 3352.3 GB/s, so the SXM5 HBM3 card; inferred)"
YT_BYTES = 2 * 32768 * 32768 * 4
YT_PEAK = (207, "Theoretical Peak: 3352.3 GB/s")
# (line, variant, published line)
YT_ROWS = [(186, "naive", "Naive                                32x32     18.0645         475.5     14.2%"),
           (187, "tiled", "Tiled                                32x32      8.6235         996.1     29.7%"),
           (188, "tiled_padded", "TiledPadded                          32x32      5.0724        1693.4     50.5%"),
           (189, "coarsen2", "Coarsen2                             32x16      3.6014        2385.1     71.1%"),
           (190, "coarsen4", "Coarsen4                              32x8      3.0984        2772.4     82.7%"),
           (191, "coarsen8", "Coarsen8                              32x4      3.0951        2775.3     82.8%"),
           (192, "vec2", "Vec2                                 16x32      3.6041        2383.4     71.1%"),
           (196, "vec4", "Vec4                                  8x32      3.0997        2771.2     82.7%"),
           (197, "vec4_coarsen2", "Vec4Coarsen2                          8x16      3.0966        2774.0     82.7%"),
           (198, "vec4_coarsen4", "Vec4Coarsen4                           8x8      3.0960        2774.5     82.8%"),
           (199, "vec4_coarsen8", "Vec4Coarsen8                           8x4      3.0972        2773.4     82.7%"),
           (203, "vec4_t64", "Vec4_T64                             16x32      2.9228        2938.9     87.7%"),
           (204, "vec4_t64_coarsen2", "Vec4_T64_Coarsen2                    16x16      2.9347        2927.0     87.3%"),
           (205, "vec4_t64_coarsen4", "Vec4_T64_Coarsen4                     16x8      2.9213        2940.5     87.7%")]

def cs_number(line):
    """The number after the colon of a matmul benchmark line ("  Avg Time     : 296.2365 ms",
    "  Performance  : 3.71 TFLOPS")."""
    return float(line.split(":")[1].split()[0])


def cs_transpose_cells(row):
    """(GB/s, ms) of a cuda_study transpose table row."""
    c = [x.strip() for x in row.split("|")[1:-1]]
    return float(c[1].replace(",", "")), float(c[2])


def stream_cells(row):
    """The GB/s cells of a gpu-benches stream row (cuda-stream and gpu-stream print them alike)."""
    return [int(v) for v in row.split("GB/s:")[1].split()]


def stream_time(streams, gbs):
    """One launch of a stream kernel over STREAM_N doubles: (ms, the derivation as written)."""
    return (streams * STREAM_N * 8 / (gbs * 1e9) * 1e3,
            f"t = {streams} streams x {STREAM_N} doubles x 8 B / ({gbs} GB/s)")


def cs_cells(row):
    """(GB/s, % of 2.0 TB/s or None) of a cuda_study bandwidth table row."""
    c = [x.strip(" *") for x in row.split("|")[1:-1]]
    return float(c[1].split()[0].replace(",", "")), float(c[2].rstrip("%")) if len(c) > 2 else None


def record(gpu_file, experiment, variant, device, source, path, commit, line, row, value, unit,
           derivation, ms, clock=None, copied=COPIED):
    rec = {"experiment": experiment, "variant": variant, "gpu": device, "date": copied,
           "check": "none", "samples_ms": [ms], "source": source, "source_path": path,
           "source_commit": commit, "source_line": line, "source_row": row,
           "published": {"value": value, "unit": unit}, "derivation": derivation}
    if clock is not None:
        rec["sm_clock_mhz"] = clock
    return gpu_file, rec


def points():
    out = []
    for gpu, device, path, commit, blocks, rows in ROOFLINE:
        for line, row in rows:
            m = ROOF_RE.match(row)
            assert m and int(m.group(1)) == blocks, row
            its, gbs, mhz = int(m.group(2)), int(m.group(4)), int(m.group(6))
            data_len = blocks * 256 * 4000
            ms = 2 * data_len * 4 / (gbs * 1e9) * 1e3
            out.append(record(gpu, "gpu_roofline", f"{gpu.replace('-', '')}_n{its}", device, GB, path,
                              commit, line, row, gbs, "GB/s",
                              f"t = 2 arrays x {blocks}*256*4000 floats x 4 B / ({gbs} GB/s)", ms, mhz))
    for gpu, device, path, commit, line, row in STREAM:
        values = stream_cells(row)
        assert len(values) == len(STREAM_KERNELS)
        for (variant, streams), gbs in zip(STREAM_KERNELS, values):
            ms, derivation = stream_time(streams, gbs)
            out.append(record(gpu, "gpu_stream", variant, device, GB, path, commit, line, row, gbs,
                              "GB/s", derivation, ms))
    for gpu, device, path, commit, _, rows in SWEEP:
        for line, row in rows:
            block = int(row.split()[0])
            for (kernel, streams), gbs in zip(SWEEP_KERNELS, stream_cells(row)):
                if (block, kernel) in SWEEP_CALIBRATION:
                    continue
                ms, derivation = stream_time(streams, gbs)
                out.append(record(gpu, f"stream_sweep_{kernel}", f"{gpu}_b{block}", device, GB, path, commit, line,
                                  row, gbs, "GB/s", derivation, ms, copied=SWEEP_COPIED))
    for line, row in SMALL:
        fields = row.split()
        n = int(fields[0])
        values = [int(v) for v in fields[2:]]
        assert len(values) == len(SMALL_BLOCKS), row
        for block, gbs in zip(SMALL_BLOCKS, values):
            ms = 2 * n * 8 / (gbs * 1e9) * 1e3
            out.append(record("h200", f"small_scale_n{n}", f"b{block}", SMALL_DEVICE, GB, SMALL_PATH,
                              SMALL_COMMIT, line, row, gbs, "GB/s",
                              f"t = 2 arrays x {n} doubles x 8 B / ({gbs} GB/s)", ms, copied=SMALL_COPIED))
    for line, row in L2_ROWS:
        fields = row.split()
        kb, gbs = int(fields[2]), float(fields[6])
        ms = L2_BLOCKS * 524288 / (gbs * 1e9) * 1e3
        out.append(record("h200", "l2_sweep", f"ws{kb}k", L2_DEVICE, GB, L2_PATH, L2_COMMIT, line, row, gbs,
                          "GB/s", f"t = {L2_BLOCKS} blocks x 524288 B / ({gbs} GB/s)", ms, copied=L2_COPIED))
    for line, row in STRIDES_ROWS:
        kind, mode, arg, cycles = row.split()[0], row.split()[1], int(row.split()[2]), float(row.split()[4])
        variant = f"{kind[0]}_{'s' if mode == 'stride' else 'b'}{arg}"
        ms = cycles * (1024 * STRIDES_N / 32) / (STRIDES_MHZ * 1e6) * 1e3
        out.append(record("h200", "gpu_strides", variant, STRIDES_DEVICE, GB, STRIDES_PATH, STRIDES_COMMIT, line, row,
                          cycles, "cycles per warp load",
                          f"t = {cycles:g} cycles x 1024 x {STRIDES_N} / 32 warp loads / {STRIDES_MHZ} MHz", ms,
                          STRIDES_MHZ, copied=STRIDES_COPIED))
    for i, row in enumerate(MIX_ROWS):
        ratio, sp_ms = row.split(",")[0].strip(), row.split(",")[1].strip()
        compute = int(ratio.split("/")[0])
        assert compute == i
        out.append(record("k20c", "mixbench_sp", f"c{compute}", "Tesla K20c", MIX, MIX_PATH,
                          MIX_COMMIT, MIX_FIRST_LINE + i, row, float(sp_ms), "ms",
                          "t = the single-precision Time column (ms, one launch timed with events)",
                          float(sp_ms)))
    for gpu, device, rows in LAPLACE:
        for line, kernel, row in rows:
            med_ns = float(row.split("|")[5].strip().replace(",", ""))
            out.append(record(gpu, "laplace_" + kernel, "default", device, LAP, LAP_PATH, LAP_COMMIT,
                              line, row, med_ns, "ns",
                              "t = the Med (ns) column of nsys cuda_gpu_kern_sum (two launches)",
                              med_ns * 1e-6))
    # cuda_study's copies: GB/s = 2 x bytes (read + write) / time.
    copies = [(line, "copy_bw", variant, CS_BYTES, row, CS_COPIED) for line, variant, row in CS_ROWS]
    copies += [(line, e, variant, nbytes, row, CS_COPIED_MM) for line, e, variant, nbytes, row in CS_L2_ROWS]
    for line, experiment, variant, nbytes, row, copied in copies:
        gbs = cs_cells(row)[0]
        ms = 2 * nbytes / (gbs * 1e9) * 1e3
        out.append(record("h100", experiment, variant, CS_DEVICE, CS, CS_PATH, CS_COMMIT, line, row, gbs, "GB/s",
                          f"t = 2 x {nbytes} B (read + write) / ({gbs:g} GB/s)", ms, 1980, copied=copied))
    for line, variant, row in CS_TR_ROWS:
        ms = cs_transpose_cells(row)[1]
        out.append(record("h100", "transpose_tiles", variant, CS_DEVICE, CS, CS_PATH, CS_COMMIT, line, row, ms, "ms",
                          "t = the Time (ms) column", ms, 1980, copied=CS_COPIED_MM))
    for line, variant, row, _ in CS_MM_ROWS:
        ms = cs_number(row)
        out.append(record("h100", "matmul_fp32", variant, CS_DEVICE, CS, CS_MM_PATH, CS_MM_COMMIT, line, row, ms, "ms",
                          "t = the Avg Time line (ms per launch, 100 launches timed with events)", ms, 1980,
                          copied=CS_COPIED_MM))
    for line, experiment, variant, row in SV_ROWS:
        gbs = float(row.split("|")[2])
        ms = SV_BYTES / (gbs * 1e9) * 1e3
        out.append(record("h100", experiment, variant, SV_DEVICE, SV, SV_PATH, SV_COMMIT, line, row, gbs, "GB/s",
                          f"t = 2^30 ints x 4 B / ({gbs:g} GB/s)", ms, copied=SV_COPIED))
    for line, variant, row in YT_ROWS:
        ms = float(row.split()[2])
        out.append(record("h100", "yencal_transpose", variant, YT_DEVICE, YT, YT_PATH, YT_COMMIT, line, row, ms, "ms",
                          "t = the Time(ms) column (ms per launch, 100 launches timed with events)", ms,
                          copied=YT_COPIED))
    return out


def check_rows():
    """Transcription check: each row must agree with itself. Roofline: GF/s = GB/s x Fl/B and
    Fl/B = (2 + 2 its) / 8; mixbench: the printed GFLOPS and GB/s follow from Time with the
    kernel's counts (2 x 8192 x 4 x 2^20 flops and 8192 x 2^20 x 4 B, times K/32 and (32 - K)/32);
    laplace_vector: Avg = Total / Instances; cuda_study: % = GB/s / 2000, L2 / HBM = the ratio
    row, TFLOPS = 2 M N K / time, transpose GB/s = 8 GiB / time; gpu-stream: threads, occupancy
    and line follow from blockSize; effective_reduction: % = GB/s / 3300; yencal: GB/s = 8 GiB / time, % = GB/s /
    the printed peak. The cuda-stream rows have no redundancy to check."""
    for _, _, _, _, _, rows in ROOFLINE:
        for _, row in rows:
            m = ROOF_RE.match(row)
            its, flb, gbs = int(m.group(2)), float(m.group(3)), int(m.group(4))
            gfs = int(re.search(r"(\d+) GF/s", row).group(1))
            assert flb == (2 + 2 * its) / 8, row
            assert abs(gbs * flb - gfs) <= 0.5 * flb + 1, row
    for _, _, _, _, sms, rows in SWEEP:
        # gpu-stream: threads = SMs x blockSize, occupancy = 2 blocks x blockSize / 2048 threads
        # per SM (printed to 0.1, "3" for 3.125), and the line is 1 + blockSize / 32.
        for line, row in rows:
            f = row.split()
            block, threads, occ = int(f[0]), int(f[1]), float(f[2])
            assert threads == sms * block and line == 1 + block // 32, row
            assert abs(occ - 2 * block / 2048 * 100) <= 0.15, row
    for line, row in SMALL:
        # The line number follows from main.cu's size loop (4096, then + 6 % rounded down), and
        # the kB column is 2 x n x 8 B / 1024 rounded down.
        n, kb = int(row.split()[0]), int(row.split()[1][:-2])
        d, k = 4096, 1
        while d < n:
            d, k = d + max(1, int(d * 0.06)), k + 1
        assert d == n and k == line, row
        assert kb == n * 16 // 1024, row
    for line, row in L2_ROWS:
        # Line = 2 + the step of main.cu's blockRun loop (3, then + max(1, 10 %) truncated) whose
        # R x 512 kB is the row's data set; the exec time (rounded ms) follows from 100,000 blocks.
        fields = row.split()
        assert fields[0] == "512" and fields[1] == "kB", row
        kb, ms, gbs = int(fields[2]), int(fields[4][:-2]), float(fields[6])
        r, k = 3, 2
        while r * 512 < kb:
            r, k = int(r + max(1.0, r * 0.1)), k + 1
        assert r * 512 == kb and k == line, row
        assert round(L2_BLOCKS * 524288 / gbs / 1e6) == ms, row
    for line, row in STRIDES_ROWS:
        # B/cycle = 32 lanes x sizeof / cycles per warp load, printed to 3 significant digits
        # (no decimals above 50); the lines follow the file's blocks of 16 + 16 + 7 + 7 rows.
        f = row.split()
        size = 4 if f[0] == "float" else 8
        cycles, bpc = float(f[4]), float(f[5])
        assert abs(32 * size / cycles - bpc) <= max(0.5, 0.006 * bpc), row
        arg = int(f[2])
        base = {("float", "stride"): 2, ("double", "stride"): 19, ("float", "block"): 36, ("double", "block"): 44}
        step = arg if f[1] == "stride" else arg.bit_length() - 1
        assert line == base[(f[0], f[1])] + step, row
    for k, row in enumerate(MIX_ROWS):
        t, gf, gb = (float(x) for x in row.split(",")[1:4])
        assert abs(k / 32 * 2 * 8192 * 4 * 2**20 / t * 1e-6 - gf) <= 0.01 + gf * 1e-4, row
        assert abs((32 - k) / 32 * 8192 * 2**20 * 4 / t * 1e-6 - gb) <= 0.01 + gb * 1e-4, row
    for _, _, row in CS_ROWS:
        # cuda_study: the % column is the GB/s over the program's assumed 2.0 TB/s peak.
        gbs, pct = cs_cells(row)
        assert abs(gbs / 2000 * 100 - pct) <= 0.06, row
    # l2_bw: the ratio row is the best L2 row over the HBM row, to one decimal.
    best = max(cs_cells(row)[0] for _, e, _, _, row in CS_L2_ROWS if e == "l2_bw")
    hbm = [cs_cells(row)[0] for _, e, _, _, row in CS_L2_ROWS if e == "l2_bw_hbm"][0]
    assert abs(best / hbm - float(CS_L2_RATIO[1].split("|")[2].strip(" *×"))) <= 0.05, CS_L2_RATIO
    for _, _, row in CS_TR_ROWS:
        # transpose: GB/s = 2 x 4 GiB / time; the time is printed to 0.01 ms (a relative slack of
        # 0.005 / ms) and the GB/s to 1.
        gbs, ms = cs_transpose_cells(row)
        assert abs(2 * CS_TR_BYTES / (ms * 1e-3) / 1e9 - gbs) <= gbs * 0.005 / ms + 1, row
    for _, _, row, perf in CS_MM_ROWS:
        # matmul: the next line's TFLOPS is 2 M N K over the time, printed to two decimals.
        ms, tflops = cs_number(row), cs_number(perf)
        assert abs(CS_MM_FLOPS / (ms * 1e-3) / 1e12 - tflops) <= 0.005 + 1e-9, row
    for _, _, _, row in SV_ROWS:
        # effective_reduction: the % column is the GB/s over the program's 3.3 TB/s, to 0.01 %.
        c = [x.strip() for x in row.split("|")[1:-1]]
        assert abs(float(c[1]) / 3300 * 100 - float(c[2].rstrip("%"))) <= 0.006, row
    for _, _, row in YT_ROWS:
        # yencal: BW = 2 x 4 GiB / time (printed to 0.1 GB/s and 0.0001 ms), % = BW / 3352.3 (to 0.1).
        f = row.split()
        ms, gbs, pct = float(f[2]), float(f[3]), float(f[4].rstrip("%"))
        assert abs(YT_BYTES / (ms * 1e-3) / 1e9 - gbs) <= 0.05 + gbs * 0.00005 / ms, row
        assert abs(gbs / float(YT_PEAK[1].split()[2]) * 100 - pct) <= 0.051, row
    for _, _, rows in LAPLACE:
        for _, _, row in rows:
            c = [x.strip().replace(",", "") for x in row.split("|")[1:-1]]
            assert abs(float(c[1]) / float(c[2]) - float(c[3])) <= 0.6, row


def main():
    check_rows()
    files = {}
    for gpu, rec in points():
        files.setdefault(gpu, []).append(rec)
    for gpu, recs in sorted(files.items()):
        with open(os.path.join(HERE, "measurements", gpu + ".jsonl"), "w") as f:
            for r in recs:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(sum(len(r) for r in files.values()), "points in", len(files), "files")


if __name__ == "__main__":
    main()
