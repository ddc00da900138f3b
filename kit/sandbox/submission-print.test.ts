import { describe, expect, it } from "vitest";
import { predictionRows, submissionPrint } from "./submission-print.js";

// Hashes by hand: printf '0.1\n0.5\n0.9' | sha256sum → 150ce29cd9e940e1…; printf '0.9\n0.1\n0.5' → 912123d51edce1c1…;
// printf 'A\nA' → 1a8960139542b252…; printf '' → e3b0c44298fc1c14….
describe("submissionPrint", () => {
  it.each([
    { name: "rows in order", csv: "id,y\n1,0.1\n2,0.5\n3,0.9\n", rows: 3, distinct: 3, ordered: "150ce29cd9e940e1", sorted: "150ce29cd9e940e1" },
    { name: "CRLF and spaces", csv: "id,y\r\n1, 0.1\r\n2,0.5\r\n\r\n3,0.9", rows: 3, distinct: 3, ordered: "150ce29cd9e940e1", sorted: "150ce29cd9e940e1" },
    { name: "shuffled predictions", csv: "id,y\n1,0.9\n2,0.1\n3,0.5\n", rows: 3, distinct: 3, ordered: "912123d51edce1c1", sorted: "150ce29cd9e940e1" },
    { name: "constant", csv: "id,y\n1,A\n2,A\n", rows: 2, distinct: 1, ordered: "1a8960139542b252", sorted: "1a8960139542b252" },
    { name: "header only", csv: "id,y\n", rows: 0, distinct: 0, ordered: "e3b0c44298fc1c14", sorted: "e3b0c44298fc1c14" },
  ])("$name", ({ name: _name, csv, ...want }) => {
    expect(submissionPrint(csv)).toEqual(want);
  });

  it("drops the id column; a line without a comma is an empty row", () => {
    expect(predictionRows("id,a,b\n7, x ,y\nlonely\n")).toEqual(["x ,y", ""]);
  });
});
