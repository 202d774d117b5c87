"""Bank statements as the banks export them, made for the tests: an OFX 1.02 (SGML, cp1252, Itaú's
and Banco do Brasil's shape) and the CSV layouts of Nubank, Itaú, Banco do Brasil and Inter."""
from __future__ import annotations

HEADER = ("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n"
          "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n")
BODY = """<OFX>
<SIGNONMSGSRSV1>
<SONRS>
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<DTSERVER>20261120120000[-03:EST]
<LANGUAGE>POR
</SONRS>
</SIGNONMSGSRSV1>
<BANKMSGSRSV1>
<STMTTRNRS>
<TRNUID>1001
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<STMTRS>
<CURDEF>BRL
<BANKACCTFROM>
<BANKID>0341
<ACCTID>12345-6
<ACCTTYPE>CHECKING
</BANKACCTFROM>
<BANKTRANLIST>
<DTSTART>20261101
<DTEND>20261130
{rows}</BANKTRANLIST>
<LEDGERBAL>
<BALAMT>0.00
<DTASOF>20261130
</LEDGERBAL>
</STMTRS>
</STMTTRNRS>
</BANKMSGSRSV1>
</OFX>
"""
ROW = """<STMTTRN>
<TRNTYPE>{kind}
<DTPOSTED>{date}100000[-03:EST]
<TRNAMT>{amount}
<FITID>{fitid}
<MEMO>{memo}
</STMTTRN>
"""


def ofx(rows: list[tuple[str, str, str, str]]) -> bytes:
    """``rows``: (date YYYYMMDD, amount "120.00", FITID, memo); CRLF and cp1252 as the banks send it."""
    text = HEADER + BODY.format(rows="".join(
        ROW.format(kind="CREDIT" if not amount.startswith("-") else "DEBIT", date=date, amount=amount, fitid=fitid,
                   memo=memo) for date, amount, fitid, memo in rows))
    return text.replace("\n", "\r\n").encode("cp1252")


def nubank_csv(rows: list[tuple[str, str, str, str]]) -> bytes:
    """Nubank (conta): ``Data,Valor,Identificador,Descrição``, dates dd/mm/yyyy, amounts 120.00."""
    lines = ["Data,Valor,Identificador,Descrição"] + [f"{d},{a},{i},{m}" for d, a, i, m in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def itau_csv(rows: list[tuple[str, str, str]]) -> bytes:
    """Itaú: ``data;lançamento;valor`` with the account above it, 1.234,56 amounts, cp1252."""
    lines = ["Extrato conta corrente;;", "agência 0001 conta 12345-6;;", "data;lançamento;valor",
             "19/11/2026;SALDO ANTERIOR;"] + [f"{d};{m};{a}" for d, m, a in rows]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def bb_csv(rows: list[tuple[str, str, str, str]]) -> bytes:
    """Banco do Brasil: quoted, ``"Data","Lançamento","Detalhes","N° documento","Valor","Tipo Lançamento"``."""
    lines = ['"Data","Lançamento","Detalhes","N° documento","Valor","Tipo Lançamento"']
    lines += [f'"{d}","Pix - Recebido","{m}","{doc}","{a}","Entrada"' for d, m, doc, a in rows]
    return ("\n".join(lines) + "\n").encode("cp1252")


def inter_csv(rows: list[tuple[str, str, str]]) -> bytes:
    """Inter: ``Data Lançamento;Descrição;Valor;Saldo`` with 1.234,56 amounts."""
    lines = ["Extrato Conta Corrente", "Conta ;12345678", "", "Data Lançamento;Descrição;Valor;Saldo"]
    lines += [f"{d};{m};{a};0,00" for d, m, a in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")
