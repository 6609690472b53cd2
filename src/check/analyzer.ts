/** The module analysis `yaoc check` runs after a structural load (HNS §11 step 8). */
import type { PackageAnalyzer } from "../hns/check.js";
import { packageAnalysis } from "../yao/package-analysis.js";

export const hnsAnalyzer: PackageAnalyzer = packageAnalysis;
