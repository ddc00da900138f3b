import { describe, expect, it } from "vitest";
import { parseReply } from "./parse-reply.js";

const fence = "```";
describe("parseReply", () => {
  it.each([
    ["plan then one python block", `Use a random forest.\n\n${fence}python\nprint(1)\n${fence}\n`, "Use a random forest.", "print(1)\n", false],
    ["largest of several python blocks", `Plan.\n${fence}python\nx = 1\n${fence}\nThen:\n${fence}python\nimport os\nprint(os.name)\n${fence}`, "Plan.\n\nThen:", "import os\nprint(os.name)\n", false],
    ["untagged block when no python block", `Plan.\n${fence}\nprint(2)\n${fence}`, "Plan.", "print(2)\n", false],
    ["python block beats a larger bash block", `${fence}bash\npip install lightgbm xgboost catboost torch\n${fence}\n${fence}py\nprint(3)\n${fence}`, "", "print(3)\n", false],
    ["only a bash block → no code", `Run this:\n${fence}bash\nls\n${fence}`, "Run this:", null, false],
    ["no code block → code null", "I would train a gradient-boosted model.", "I would train a gradient-boosted model.", null, false],
    ["empty block → code null", `Plan.\n${fence}python\n\n${fence}`, "Plan.", null, false],
    ["think sections dropped", `<think>\nmaybe ${fence}python\nwrong()\n${fence}\n</think>\nReal plan.\n${fence}python\nright()\n${fence}`, "Real plan.", "right()\n", false],
    ["stray closing think tag", `reasoning...\n</think>\n\nPlan B.\n${fence}python\nb()\n${fence}`, "Plan B.", "b()\n", false],
    ["unclosed fence (cut by maxTokens)", `Plan.\n${fence}python\nimport numpy as np\nx = np.`, "Plan.", "import numpy as np\nx = np.\n", true],
    ["CRLF line endings", `Plan.\r\n${fence}python\r\nprint(4)\r\n${fence}\r\n`, "Plan.", "print(4)\n", false],
    ["inline backticks inside code kept", `${fence}python\ns = "a \`b\` c"\n${fence}`, "", 's = "a `b` c"\n', false],
  ])("%s", (_name, reply, plan, code, truncated) => {
    const r = parseReply(reply);
    expect(r.plan).toBe(plan);
    expect(r.code).toBe(code);
    expect(r.truncated).toBe(truncated);
  });
});
