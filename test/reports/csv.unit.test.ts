/**
 * The CSV rules every export writes with (shared/domain/csv.ts; docs/security.md, "CSV injection"): RFC 4180
 * quoting (comma, quote, CR, LF; quotes doubled), CRLF lines, a leading ' on a text cell a spreadsheet would run as
 * a formula (= + - @ tab CR), numbers and booleans as they are, null and undefined empty.
 */
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvText } from '#shared/domain/csv.ts';

describe('csvCell', () => {
  it('writes plain text, numbers, booleans and empty cells as they are', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('')).toBe('');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-1250)).toBe('-1250');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
    expect(csvCell('{"a":1,"b":"x"}')).toBe('"{""a"":1,""b"":""x""}"');
  });

  it("prefixes a text cell starting a formula with ', and quotes it when it also needs quotes", () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =b')).toBe(' =b');
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
