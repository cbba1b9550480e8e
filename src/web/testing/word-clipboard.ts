// What Microsoft Word puts on the clipboard as text/html (Word for Windows, a Spanish document), for the
// tests of the notas editor's paste. Only tests import it.

/** Word's head: namespaces, the ProgId and, in its stylesheet, the list styles its classes name. */
const HEAD = `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40">
<head><meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=ProgId content=Word.Document><meta name=Generator content="Microsoft Word 15"><meta name=Originator content="Microsoft Word 15">
<style><!--
p.MsoNormal, li.MsoNormal, div.MsoNormal {margin-top:0cm;margin-right:0cm;margin-bottom:8.0pt;margin-left:0cm;line-height:107%;font-size:11.0pt;font-family:"Calibri",sans-serif;}
p.MsoListBullet, li.MsoListBullet, div.MsoListBullet {mso-style-priority:99;margin-left:18.0pt;text-indent:-18.0pt;mso-list:l0 level1 lfo1;font-size:11.0pt;font-family:"Calibri",sans-serif;}
p.MsoListBullet2, li.MsoListBullet2, div.MsoListBullet2 {mso-style-priority:99;margin-left:36.0pt;text-indent:-18.0pt;mso-list:l0 level2 lfo1;}
p.MsoListParagraph, li.MsoListParagraph, div.MsoListParagraph {mso-style-priority:34;margin-left:36.0pt;mso-add-space:auto;}
@list l0:level1 {mso-level-number-format:bullet;mso-level-text:\\F0B7;mso-level-tab-stop:none;mso-level-number-position:left;text-indent:-18.0pt;font-family:Symbol;}
--></style></head>
<body lang=ES-VE link="#0563C1" vlink="#954F72" style='tab-interval:35.4pt;word-wrap:break-word'>
<!--StartFragment-->`;
const TAIL = `<!--EndFragment-->
</body>
</html>`;

/**
 * Lists made with Word's 'Lista con viñetas' styles: the paragraphs' classes (MsoListBullet, MsoListBullet2)
 * carry the list, which their own style attribute does not name; the bullets are in mso-list:Ignore spans.
 */
export const WORD_LIST_STYLES = `${HEAD}
<p class=MsoNormal><b><span lang=ES-VE>Recorrido del sábado<o:p></o:p></span></b></p>

<p class=MsoListBullet><![if !supportLists]><span lang=ES-VE style='font-family:Symbol;mso-fareast-font-family:Symbol;mso-bidi-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=ES-VE>Cabimas<o:p></o:p></span></p>

<p class=MsoListBullet2><![if !supportLists]><span lang=ES-VE style='font-family:"Courier New";mso-fareast-font-family:"Courier New"'><span style='mso-list:Ignore'>o<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]><span lang=ES-VE>Plaza Bolívar, 9:00&nbsp;a.&nbsp;m.<o:p></o:p></span></p>

<p class=MsoListBullet><![if !supportLists]><span lang=ES-VE style='font-family:Symbol;mso-fareast-font-family:Symbol;mso-bidi-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=ES-VE>Lagunillas<o:p></o:p></span></p>

<p class=MsoNormal><span lang=ES-VE>o sea, 1. salida a las 8.<o:p></o:p></span></p>
${TAIL}`;

/**
 * A list as Word writes it when the list is on 'Párrafo de lista' without its mso-list style in the
 * paragraph (pasted from a document saved as filtered HTML, or an Outlook message): the bullet is written
 * out ('§' in Wingdings, '·' in Symbol, '1.') before non-breaking spaces, with no span that names it.
 */
export const WORD_WRITTEN_BULLETS = `${HEAD}
<p class=MsoListParagraph style='margin-left:36.0pt;text-indent:-18.0pt'><span lang=ES-VE style='font-family:Wingdings'>§<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span><span lang=ES-VE>Agua<o:p></o:p></span></p>
<p class=MsoListParagraph style='margin-left:36.0pt;text-indent:-18.0pt'><span lang=ES-VE style='font-family:Wingdings'>§<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span><span lang=ES-VE>Gorras<o:p></o:p></span></p>
<p class=MsoNormal><span lang=ES-VE>Y después:<o:p></o:p></span></p>
<p class=MsoNormal style='margin-left:36.0pt;text-indent:-18.0pt'><span lang=ES-VE>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span><span lang=ES-VE>Caravana<o:p></o:p></span></p>
<p class=MsoNormal style='margin-left:36.0pt;text-indent:-18.0pt'><span lang=ES-VE>2.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span><span lang=ES-VE>Mitin<o:p></o:p></span></p>
${TAIL}`;
