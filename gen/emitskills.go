package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// declareSkillConsts names the constant that holds each skill's
// frontmatter: pdf-processing → pdfProcessingFrontmatter.
func (e *emitter) declareSkillConsts() {
	for _, k := range e.m.skills {
		k.constName = e.scope.declare(lowerCamel(strings.ReplaceAll(k.path, "/", "_")) + "Frontmatter")
	}
}

// registerSkills writes one AddSkill per skill, its manifest as computed
// from the files, which the embed.FS serves:
//
//	s.AddSkill(&runtime.Skill{
//		Path:        "pdf-processing",
//		Frontmatter: pdfProcessingFrontmatter,
//		Files: []runtime.SkillFile{
//			{Path: "SKILL.md", Size: 240, Digest: "sha256:…"},
//		},
//		FS:  skillFiles,
//		Dir: "skills/pdf-processing",
//	})
func (e *emitter) registerSkills() []jen.Code {
	var calls []jen.Code
	for _, k := range e.m.skills {
		var files []jen.Code
		for _, f := range k.files {
			files = append(files, jen.Values(field("Path", jen.Lit(f.path)), field("Size", jen.Lit(int(f.size))), field("Digest", jen.Lit(f.digest))))
		}
		fs := []jen.Code{
			field("Path", jen.Lit(k.path)),
			field("Frontmatter", jen.Id(k.constName)),
			field("Files", jen.Index().Add(e.rt("SkillFile")).Add(elements(files...))),
			field("FS", e.objCode(k.folder.v)),
			field("Dir", jen.Lit(k.folder.dir+"/"+k.path)),
		}
		if k.dynamic != nil {
			fs = append(fs, field("Dynamic", e.dynamicSkillFunc(k)))
		}
		calls = append(calls, jen.Id(e.locals.server).Dot("AddSkill").Call(jen.Op("&").Add(e.rt("Skill")).Add(elements(fs...))))
	}
	return calls
}

// dynamicSkillFunc is the function that computes a dynamic skill's files:
// the //mcp:skill function itself when it takes a context, else a
// function literal that calls it.
func (e *emitter) dynamicSkillFunc(k *skillModel) jen.Code {
	fn := e.funcRef(k.dynamic)
	if k.dynamic.hasCtx {
		return fn
	}
	return jen.Func().Params(jen.Id("_").Add(e.context("Context"))).Params(e.qual("io/fs", "fs", "FS"), jen.Error()).Block(jen.Return(jen.Add(fn).Call()))
}

// skillConsts writes each skill's frontmatter, as skills/list sends it,
// as a readable constant into the constants' file.
func (e *emitter) skillConsts(add func(name, doc, value string)) {
	for _, k := range e.m.skills {
		add(k.constName, "is the frontmatter of "+k.folder.dir+"/"+k.path+"/SKILL.md, as skills/list sends it.", k.fm.json)
	}
}

// skillList names the skills for NewServer's doc comment: their URIs.
func (e *emitter) skillList() string {
	uris := make([]string, len(e.m.skills))
	for i, k := range e.m.skills {
		uris[i] = k.uri()
	}
	return strings.Join(uris, ", ")
}
