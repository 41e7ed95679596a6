import io.tokenclock.fixtures.engine.GeneratedModel;
import io.tokenclock.fixtures.engine.ModelShape;
import java.nio.file.Path;
/** Writes tokenclock's 256x4 random model (seed 11) with a context length of args[0] tokens to args[1]. */
public class GenModel {
    public static void main(String[] a) throws Exception {
        GeneratedModel.write(new ModelShape(256, 4, 4, Integer.parseInt(a[0]), 11), Path.of(a[1]));
    }
}
