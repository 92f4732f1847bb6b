#include "costnarration.h"

#include "io/bytesize.h"
#include "sim/estimates.h"
#include "sim/simulator.h"

#include <cstdio>

namespace cs {

namespace {

std::string number(double value, int decimals = 2)
{
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

void narrateFormula(const CostQuestion& q, CostNarration& out, const ProtocolParams& protocol)
{
  const int n = q.program->ngpus;
  const std::optional<NcclEstimate> ring = estimateNcclAllReduce(*q.topology, n, q.bytes, protocol);
  if (ring) {
    out.alphaUs = ring->alphaUs;
    out.betaGBps = ring->betaGBps;
  }
  if (!q.algorithm) {
    out.sentences.push_back("No cost formula: this Schedule is not a catalogue algorithm (it was "
                            "imported, drawn or edited), so only the simulation below applies.");
    return;
  }
  out.algorithmKey = std::string(q.algorithm->key);
  out.formula = std::string(q.algorithm->costFormula);
  if (!ring) {
    out.sentences.push_back("Cost formula of " + out.algorithmKey + ": " + out.formula +
                            "; the topology gives no route between ring neighbours, so α and β "
                            "are unknown.");
    return;
  }
  out.formulaUs = q.algorithm->estimateUs(q.options, q.bytes, {ring->alphaUs, ring->betaGBps});
  out.sentences.push_back(
      "Cost formula of " + out.algorithmKey + ": " + out.formula +
      ", with α = " + number(ring->alphaUs) +
      " µs (the largest latency between ring neighbours plus the "
      "protocol's per-message latency), β = " +
      number(ring->betaGBps, 1) +
      " GB/s (the slowest route between ring neighbours times the protocol's efficiency), n = " +
      std::to_string(n) + " and S = " + formatByteSize(q.bytes) + ": " + number(*out.formulaUs) +
      " µs.");
}

void narrateSimulation(const CostQuestion& q, CostNarration& out, const ProtocolParams& protocol)
{
  SimOptions sim;
  sim.bytes = q.bytes;
  sim.protocol = protocol;
  sim.recordEvents = false;
  sim.recordUtilisation = false;
  const SimResult result = simulateProgram(*q.program, *q.topology, sim);
  const int n = q.program->ngpus;
  out.busFactor = busBandwidthFactor(q.program->collective, n);
  out.busFactorFormula = busFactorFormula(q.program->collective);
  if (!result.ok || result.timeUs <= 0) {
    out.diagnostics = result.diagnostics;
    out.sentences.push_back("The simulation on " + q.topology->name +
                            " did not finish, so there is no simulated time or busbw.");
    return;
  }
  out.simulatedUs = result.timeUs;
  out.algbwGBps = result.algbwGBps;
  out.busbwGBps = result.busbwGBps;
  out.sentences.push_back("Simulated on " + q.topology->name + " (link contention included): " +
                          number(result.timeUs) + " µs for " + formatByteSize(q.bytes) + ".");
  out.sentences.push_back(
      "algbw = S / t = " + std::to_string(q.bytes) + " B / " + number(result.timeUs) +
      " µs = " + number(result.algbwGBps) + " GB/s; busbw = algbw × " + out.busFactorFormula +
      " (nccl-tests' factor for " + std::string(collectiveTitle(q.program->collective)) +
      ", n = " + std::to_string(n) + ": " + number(out.busFactor, 4) +
      ") = " + number(result.busbwGBps) + " GB/s.");
}

} // namespace

std::string busFactorFormula(Collective collective)
{
  switch (collective) {
  case Collective::AllReduce:
    return "2(n-1)/n";
  case Collective::AllGather:
  case Collective::ReduceScatter:
  case Collective::AllToAll:
    return "(n-1)/n";
  default:
    return "1";
  }
}

CostNarration narrateCost(const CostQuestion& question)
{
  CostNarration out;
  out.bytes = question.bytes;
  if (!question.program || !question.topology)
    return out;
  const ProtocolParams protocol = defaultProtocolParams(question.program->proto);
  narrateFormula(question, out, protocol);
  narrateSimulation(question, out, protocol);
  return out;
}

const AlgorithmInfo* catalogueOrigin(const Schedule& schedule, GeneratorOptions& options)
{
  GeneratorOptions candidate;
  candidate.ranks = schedule.ranks;
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    if (info.collective != schedule.collective || info.unsupported(candidate))
      continue;
    Schedule generated = info.generate(candidate);
    generated.name = schedule.name;
    if (generated == schedule) {
      options = candidate;
      return &info;
    }
  }
  return nullptr;
}

} // namespace cs
