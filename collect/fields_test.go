package collect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	// The generated packages whose descriptors the constants are checked
	// against; collect imports them already, named here so that the test
	// does not depend on it.
	_ "github.com/trainreport/trainreport/collect/eventpb"
	_ "github.com/trainreport/trainreport/collect/mindspore/mspb"
)

// TestFieldNumbersMatchDescriptors checks every field-number constant the
// hand-written wire readers use against the descriptors the generated
// code registers: each constant of a fields.go names its message and field
// in its comment ("Event.summary"), and the number there must be the
// descriptor's. A constant without such a comment, or naming a field no
// descriptor has, fails too, so that none escapes the check.
func TestFieldNumbersMatchDescriptors(t *testing.T) {
	for _, f := range []struct{ path, protoPkg string }{
		{"eventpb/fields.go", "trainreport.event"},
		{"mindspore/mspb/fields.go", "trainreport.mindspore"},
	} {
		file, err := parser.ParseFile(token.NewFileSet(), f.path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				name := vs.Names[0].Name
				var lit *ast.BasicLit
				if len(vs.Names) == 1 && len(vs.Values) == 1 {
					lit, _ = vs.Values[0].(*ast.BasicLit)
				}
				if lit == nil || lit.Kind != token.INT {
					t.Errorf("%s: %s is not one constant of a literal number", f.path, name)
					continue
				}
				num, _ := strconv.Atoi(lit.Value)
				if vs.Comment == nil {
					t.Errorf("%s: %s names no Message.field in its comment", f.path, name)
					continue
				}
				where := strings.Fields(vs.Comment.Text())[0]
				msg, field := where[:max(strings.LastIndex(where, "."), 0)], where[strings.LastIndex(where, ".")+1:]
				d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(f.protoPkg + "." + msg))
				md, ok := d.(protoreflect.MessageDescriptor)
				if err != nil || !ok {
					t.Errorf("%s: %s: no message %s in %s (%v)", f.path, name, msg, f.protoPkg, err)
					continue
				}
				fd := md.Fields().ByName(protoreflect.Name(field))
				switch {
				case fd == nil:
					t.Errorf("%s: %s: message %s has no field %s", f.path, name, msg, field)
				case int(fd.Number()) != num:
					t.Errorf("%s: %s = %d, but %s is field %d", f.path, name, num, where, fd.Number())
				}
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("%s: no field-number constant found", f.path)
		}
		t.Logf("%s: %d constants checked", f.path, checked)
	}
}
