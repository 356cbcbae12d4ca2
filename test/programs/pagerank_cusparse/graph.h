// A reproducible directed graph (a ring, hubs and random links, some nodes
// without out-links) and its column-stochastic transition matrix in CSR,
// both by source (out-links) and by destination (in-links).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

struct Csr {
  int rows = 0, cols = 0;
  std::vector<int> offsets, cols_idx;
  std::vector<float> values;
  int nnz() const { return (int)cols_idx.size(); }
};

struct Graph {
  int n = 0;
  std::vector<std::pair<int, int>> edges; // (from, to), no duplicates
  std::vector<int> outdeg;
};

static inline uint32_t lcg(uint32_t &s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}

inline Graph makeGraph(int n, uint32_t seed) {
  Graph g;
  g.n = n;
  std::vector<std::pair<int, int>> e;
  for (int v = 0; v < n; ++v) {
    if (v % 11 == 5) continue; // dangling: no out-links at all
    e.push_back({v, (v + 1) % n});
    int extra = 1 + (int)(lcg(seed) % 9);
    for (int k = 0; k < extra; ++k) e.push_back({v, (int)(lcg(seed) % n)});
    if (v % 3 == 0) e.push_back({v, (int)(lcg(seed) % 8)}); // hubs 0..7
  }
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  e.erase(std::remove_if(e.begin(), e.end(),
                         [](const std::pair<int, int> &p) { return p.first == p.second; }),
          e.end());
  g.edges = e;
  g.outdeg.assign(n, 0);
  for (auto &p : e) g.outdeg[p.first]++;
  return g;
}

// P(to, from) = 1 / outdeg(from).  byDestination: rows are destinations
// (P itself); otherwise rows are sources (P transposed).
inline Csr transitionCsr(const Graph &g, bool byDestination) {
  std::vector<std::pair<int, int>> e = g.edges;
  if (byDestination)
    for (auto &p : e) std::swap(p.first, p.second);
  std::sort(e.begin(), e.end());
  Csr m;
  m.rows = m.cols = g.n;
  m.offsets.assign(g.n + 1, 0);
  for (auto &p : e) {
    m.offsets[p.first + 1]++;
    m.cols_idx.push_back(p.second);
    int from = byDestination ? p.second : p.first;
    m.values.push_back(1.0f / (float)g.outdeg[from]);
  }
  for (int r = 0; r < g.n; ++r) m.offsets[r + 1] += m.offsets[r];
  return m;
}
