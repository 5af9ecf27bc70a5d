package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/loomwork/loom/backend"
)

// cmdDoctor checks a workspace and writes nothing: exit 0 when it is
// sound, 1 when it found problems (repair says how it mends them).
func cmdDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("doctor", stderr)
	var ws workspaceFlags
	ws.register(fs)
	format := fs.String("format", "text", "text or json")
	_, dir, err := workspaceOnly("doctor", fs, args, &ws, format, stderr)
	if err != nil {
		return err
	}
	c, err := backend.Doctor(ctx, dir)
	if err != nil {
		return err
	}
	if *format == "json" {
		if err := writeJSON(stdout, c); err != nil {
			return err
		}
	} else {
		printCheckup(stdout, c)
	}
	if n := c.Problems(); n > 0 {
		return &exitError{1, fmt.Errorf("%d problem(s) in %s: `loom repair --workspace %s` mends what it can (see above)", n, dir, dir)}
	}
	return nil
}

// cmdRepair mends a workspace (see backend.Repair).
func cmdRepair(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("repair", stderr)
	var ws workspaceFlags
	ws.register(fs)
	out := fs.String("out", "", "where a salvaged workspace goes when the graph store cannot be mended in place (default: the workspace's folder + .repaired)")
	replace := fs.Bool("replace", false, "put a salvaged workspace in the damaged one's place, keeping the damaged one as <folder>.damaged-N")
	format := fs.String("format", "text", "text or json")
	cfg, dir, err := workspaceOnly("repair", fs, args, &ws, format, stderr)
	if err != nil {
		return err
	}
	opts, err := cfg.EngineOptions()
	if err != nil {
		return err
	}
	rep, err := backend.Repair(ctx, dir, backend.RepairOptions{Out: *out, Replace: *replace}, opts...)
	if err != nil {
		return err
	}
	if *format == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		for _, a := range rep.Actions {
			fmt.Fprintln(stdout, "repaired:", a)
		}
		if len(rep.Actions) == 0 {
			fmt.Fprintln(stdout, "repaired: nothing needed mending")
		}
		for _, l := range rep.Lost {
			fmt.Fprintln(stdout, "lost:", l)
		}
		if rep.Salvaged && !*replace {
			fmt.Fprintf(stdout, "the salvaged workspace is %s; the damaged one, %s, is as it was (use the new one with --workspace %s, or run repair with --replace)\n",
				rep.Workspace, dir, rep.Workspace)
		}
		fmt.Fprintln(stdout)
		printCheckup(stdout, rep.After)
	}
	if n := rep.After.Problems(); n > 0 {
		return &exitError{1, fmt.Errorf("%d problem(s) remain in %s (see above)", n, rep.Workspace)}
	}
	return nil
}

func printCheckup(w io.Writer, c *backend.Checkup) {
	fmt.Fprintf(w, "workspace %s\n", c.Workspace)
	width := 0
	for _, f := range c.Findings {
		width = max(width, len(f.Part))
	}
	for _, f := range c.Findings {
		status := map[string]string{backend.StatusOK: "ok", backend.StatusNote: "note", backend.StatusProblem: "PROBLEM"}[f.Status]
		fmt.Fprintf(w, "  %-7s  %-*s  %s\n", status, width, f.Part, f.Detail)
		if f.Status != backend.StatusOK && f.Repair != "" {
			fmt.Fprintf(w, "  %-7s  %-*s  repair %s\n", "", width, "", f.Repair)
		}
	}
	for i, lt := range c.LostTexts {
		if i == 10 {
			fmt.Fprintf(w, "  … and %d more sections without their text\n", len(c.LostTexts)-10)
			break
		}
		from := "its file changed or is gone"
		if lt.Source != "" {
			from = "repair reads it back from " + lt.Source
		} else if lt.Summary {
			from = "a summary, made again when needed"
		}
		fmt.Fprintf(w, "  %s (%s): %s; %s\n", lt.Node, lt.Ref, strings.TrimPrefix(lt.Problem, "the stored text "), from)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// workspaceOnly parses the flags of a command that takes no arguments
// besides its workspace (doctor, repair) and --format, and finds the
// workspace's folder.
func workspaceOnly(name string, fs *flag.FlagSet, args []string, ws *workspaceFlags, format *string, stderr io.Writer) (backend.Config, string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return backend.Config{}, "", err
	}
	if len(pos) > 0 {
		return backend.Config{}, "", usageErr("%s: unexpected %q (the workspace is given with --workspace)", name, pos[0])
	}
	if *format != "text" && *format != "json" {
		return backend.Config{}, "", usageErr("%s: --format must be text or json, not %q", name, *format)
	}
	cfg, err := ws.config(stderr)
	if err != nil {
		return backend.Config{}, "", err
	}
	dir, err := cfg.Folder()
	if err != nil {
		return backend.Config{}, "", err
	}
	return cfg, dir, nil
}
