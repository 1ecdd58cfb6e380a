/**
 * The CSV rules every export writes with (shared/domain/csv.ts; docs/security.md, "CSV injection"): RFC 4180
 * quoting (comma, quote, CR, LF; quotes doubled), CRLF lines, a leading ' on a text cell a spreadsheet would run as
 * a formula (= + - @ tab CR), numbers and booleans as they are, null and undefined empty.
 */
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvText } from '#shared/domain/csv.ts';

type Cell = Parameters<typeof csvCell>[0];

describe('csvCell', () => {
  it.each<[Cell, string]>([
    ['plain text', 'plain text'],
    ['', ''],
    [0, '0'],
    [-1250, '-1250'],
    [true, 'true'],
    [null, ''],
    [undefined, ''],
  ])('writes plain text, numbers, booleans and empty cells as they are: %j', (cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  it.each<[string, string]>([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    ['{"a":1,"b":"x"}', '"{""a"":1,""b"":""x""}"'],
  ])('quotes a cell holding a comma, a quote or a line break, doubling its quotes: %j', (cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  it.each<[string, string]>([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', '"\'\rx"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['a=b', 'a=b'],
    [' =b', ' =b'],
  ])("prefixes a text cell starting a formula with ', and quotes it when it also needs quotes: %j", (cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });
});

describe('csvLine and csvText', () => {
  it('joins cells by commas and ends each line with CRLF, the header first', () => {
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
    expect(csvLine([])).toBe('\r\n');
    expect(csvText(['id', 'note'], [])).toBe('id,note\r\n');
    expect(
      csvText(
        ['id', 'note'],
        [
          ['1', '=x'],
          ['2', undefined],
        ],
      ),
    ).toBe("id,note\r\n1,'=x\r\n2,\r\n");
  });
});
