// The SAT4j peer of strata's BenchmarkEntailsGiven: it answers the same
// queries (Θ, α) ⊢poss β the way the paper's Java tool does, building a new
// SAT4j solver for every satisfiability test: a binary search for the
// lowest consistent cut (the evidence α joins the top level, of weight 1),
// then one test of the cut with α and ¬β. It checks every answer against
// strata's and prints the time per query. Written for strata's bench/peer.
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.List;

import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;

public class PossQuery {
    static int atoms, levels;
    static List<int[]> clauses = new ArrayList<>();
    static List<Integer> level = new ArrayList<>();

    // consistent tests the cut of levels >= cut, with the units of alpha
    // (when the cut includes the top level) and of extra.
    static boolean consistent(int cut, int[] alpha, int[] extra) throws Exception {
        ISolver s = SolverFactory.newDefault();
        s.newVar(atoms);
        try {
            for (int i = 0; i < clauses.size(); i++) {
                if (level.get(i) >= cut) {
                    s.addClause(new VecInt(clauses.get(i)));
                }
            }
            if (cut < levels) {
                for (int a : alpha) {
                    s.addClause(new VecInt(new int[] {a}));
                }
            }
            for (int a : extra) {
                s.addClause(new VecInt(new int[] {a}));
            }
        } catch (ContradictionException e) {
            return false;
        }
        return s.isSatisfiable();
    }

    static boolean entails(int[] alpha, int beta) throws Exception {
        int lo = 0, hi = levels; // the empty cut (levels) is consistent
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (consistent(mid, alpha, new int[0])) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return !consistent(lo, alpha, new int[] {-beta});
    }

    public static void main(String[] args) throws Exception {
        List<int[]> alphas = new ArrayList<>();
        List<Integer> betas = new ArrayList<>(), answers = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new FileReader(args[0]))) {
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.trim().split("\\s+");
                if (f[0].equals("p")) {
                    atoms = Integer.parseInt(f[2]);
                    levels = Integer.parseInt(f[3]);
                } else if (f[0].equals("c")) {
                    level.add(Integer.parseInt(f[1]));
                    int[] c = new int[f.length - 3];
                    for (int i = 2; i < f.length - 1; i++) c[i - 2] = Integer.parseInt(f[i]);
                    clauses.add(c);
                } else if (f[0].equals("q")) {
                    answers.add(Integer.parseInt(f[1]));
                    int zero = 2;
                    while (!f[zero].equals("0")) zero++;
                    int[] a = new int[zero - 2];
                    for (int i = 2; i < zero; i++) a[i - 2] = Integer.parseInt(f[i]);
                    alphas.add(a);
                    betas.add(Integer.parseInt(f[zero + 1]));
                }
            }
        }
        int n = alphas.size();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int q = 0; q < n; q++) { // warm-up for the JIT, and the check
            boolean got = entails(alphas.get(q), betas.get(q));
            if (got != (answers.get(q) == 1)) {
                System.err.println("query " + (q + 1) + ": SAT4j says " + got + ", strata " + (answers.get(q) == 1));
                System.exit(1);
            }
        }
        double best = Double.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            long t0 = System.nanoTime();
            for (int q = 0; q < n; q++) entails(alphas.get(q), betas.get(q));
            best = Math.min(best, (System.nanoTime() - t0) / (double) n);
        }
        System.out.printf("SAT4j peer: %d queries agree with strata; best of %d rounds: %.0f ns/query%n", n, rounds, best);
    }
}
